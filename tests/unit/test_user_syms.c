// SPDX-License-Identifier: GPL-2.0
/* test_user_syms.c: user addresses named from /proc/PID/maps and ELF symbols (this very binary) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lib/elf_addr.h"
#include "lib/proc_maps.h"
#include "lib/user_syms.h"

/* A function of ours to be named: not inlined, some bytes long. */
__attribute__((noinline)) int user_syms_probe_target(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3 + 1;
}

static void maps_of_self(void **state)
{
	struct proc_maps m;
	const struct proc_map *e;
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;

	assert_true(n > 0);
	exe[n] = '\0';
	assert_int_equal(proc_maps_read((uint32_t)getpid(), &m), 0);
	e = proc_maps_find(&m, (uint64_t)(uintptr_t)user_syms_probe_target);
	assert_non_null(e);
	assert_string_equal(e->path, exe);
	assert_int_equal(stat(exe, &st), 0);
	assert_int_equal(e->ino, st.st_ino);
	assert_int_equal(e->dev, proc_maps_kdev(st.st_dev));
	assert_null(proc_maps_find(&m, 0));
	proc_maps_free(&m);
	assert_int_not_equal(proc_maps_read(0xfffffffe, &m), 0);
}

static void names_an_address(void **state)
{
	struct user_syms *u = user_syms_new();
	struct user_place pl;
	uint64_t a = (uint64_t)(uintptr_t)user_syms_probe_target;

	assert_non_null(u);
	assert_int_equal(user_syms_name(u, (uint32_t)getpid(), a, &pl), 0);
	assert_non_null(pl.sym);
	assert_string_equal(pl.sym, "user_syms_probe_target");
	assert_int_equal(pl.off, 0);
	assert_int_equal(user_syms_name(u, (uint32_t)getpid(), a + 3, &pl), 0);
	assert_string_equal(pl.sym, "user_syms_probe_target");
	assert_int_equal(pl.off, 3);
	/* Not in any file: anonymous memory, or nothing. */
	assert_int_not_equal(user_syms_name(u, (uint32_t)getpid(), 8, &pl), 0);
	user_syms_free(u);
}

/* By file identity, as the BPF program hands it over: device, inode and file offset. */
static void names_a_file_offset(void **state)
{
	struct user_syms *u = user_syms_new();
	const struct proc_map *e;
	struct user_place pl;
	struct proc_maps m;
	uint64_t a = (uint64_t)(uintptr_t)user_syms_probe_target, off;

	assert_int_equal(proc_maps_read((uint32_t)getpid(), &m), 0);
	e = proc_maps_find(&m, a);
	assert_non_null(e);
	off = a - e->start + e->pgoff;
	/* Unknown until told of the file (or found in every process's maps: ours is running). */
	assert_int_equal(user_syms_name_file(u, e->dev, e->ino, off + 2, &pl), 0);
	assert_string_equal(pl.sym, "user_syms_probe_target");
	assert_int_equal(pl.off, 2);
	assert_string_equal(pl.path, e->path);
	assert_int_not_equal(user_syms_name_file(u, e->dev, 1, off, &pl), 0);
	proc_maps_free(&m);
	user_syms_free(u);
}

static void elf_refusals(void **state)
{
	struct elf_addrs *c = elf_addrs_new();
	uint64_t vaddr;
	const char *sym;
	uint64_t off;

	assert_int_not_equal(elf_addrs_name(c, "/nonexistent/x", 0, &vaddr, &sym, &off), 0);
	assert_int_equal(elf_addrs_name(c, "/proc/self/status", 0, &vaddr, &sym, &off), -ENOEXEC);
	/* An offset past every loaded segment of this binary. */
	assert_int_equal(elf_addrs_name(c, "/proc/self/exe", 1ULL << 40, &vaddr, &sym, &off),
			 -ERANGE);
	elf_addrs_free(c);
}

/* This very binary is mapped: by its device and inode, or by its inode and path. */
static void file_mapped(void **state)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	struct stat st;

	(void)state;
	assert_true(n > 0);
	path[n] = 0;
	assert_int_equal(stat(path, &st), 0);
	assert_true(proc_maps_file_mapped(st.st_dev, st.st_ino, path));
	/* btrfs and overlayfs maps show another device than stat: the path decides then. */
	assert_true(proc_maps_file_mapped(st.st_dev + 1, st.st_ino, path));
	assert_false(proc_maps_file_mapped(st.st_dev + 1, st.st_ino, "/no/such/file"));
	assert_false(proc_maps_file_mapped(st.st_dev, st.st_ino + 1000000007, path));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(maps_of_self),	    cmocka_unit_test(file_mapped),
		cmocka_unit_test(names_an_address), cmocka_unit_test(names_a_file_offset),
		cmocka_unit_test(elf_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
