// SPDX-License-Identifier: GPL-2.0
/* test_elfsyms.c: symbol -> file offset in PIE executables and shared libraries, and refusals */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dlfcn.h>
#include <limits.h>
#include <sys/stat.h>
#include "lib/elf_symbols.h"
#include "lib/elfsyms.h"
#include "lib/ifunc.h"
#include "lib/insn_bound.h"

__attribute__((noinline)) int elfsyms_probe_me(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3 + 1;
}

/* The bytes at the resolved file offset must be the function's code as it sits in memory. */
static void pie_offset_matches_memory(void **state)
{
	unsigned char file_bytes[16];
	struct elf_func f;
	int fd;

	assert_int_equal(elfsyms_resolve("/proc/self/exe", "elfsyms_probe_me", 0, &f), 0);
	fd = open(f.path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, file_bytes, sizeof(file_bytes), (off_t)f.file_offset),
			 sizeof(file_bytes));
	close(fd);
	assert_memory_equal(file_bytes, (const void *)elfsyms_probe_me, sizeof(file_bytes));
	assert_true(f.size > 0);
	elf_func_free(&f);
}

static void offset_inside_function(void **state)
{
	struct elf_func a, b;
	struct insn_bound bound;
	uint8_t code[16];
	int fd;

	assert_int_equal(elfsyms_resolve("/proc/self/exe", "elfsyms_probe_me", 0, &a), 0);
	/* The first instruction is longer than one byte: +1 is inside it, and refused. */
	fd = open(a.path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, code, sizeof(code), (off_t)a.file_offset), sizeof(code));
	close(fd);
	assert_int_equal(insn_bound_find(code, sizeof(code), 1, &bound), 1);
	assert_int_equal(elfsyms_resolve("/proc/self/exe", "elfsyms_probe_me", 1, &b), -EINVAL);
	/* The next instruction's start is a boundary, and resolves to its own file offset. */
	assert_int_equal(elfsyms_resolve("/proc/self/exe", "elfsyms_probe_me", bound.after, &b), 0);
	assert_int_equal(b.file_offset, a.file_offset + bound.after);
	elf_func_free(&a);
	elf_func_free(&b);
	assert_int_equal(elfsyms_resolve("/proc/self/exe", "elfsyms_probe_me", 1 << 20, &a),
			 -EINVAL);
}

static void shared_library_by_name(void **state)
{
	struct elf_func f;

	/* A bare name is searched in the library folders; fopen is an ordinary export. */
	assert_int_equal(elfsyms_resolve("libc.so.6", "fopen", 0, &f), 0);
	assert_non_null(strstr(f.path, "libc.so.6"));
	assert_true(f.file_offset > 0);
	elf_func_free(&f);
	/* memcpy in glibc is an IFUNC resolver: refused with an explanation. */
	assert_int_equal(elfsyms_resolve("libc.so.6", "memcpy", 0, &f), -EINVAL);
}

static void refusals(void **state)
{
	char path[] = "/tmp/cp-notelf.XXXXXX";
	struct elf_func f;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "hello, not an ELF file\n", 23), 23);
	close(fd);
	assert_int_equal(elfsyms_resolve(path, "main", 0, &f), -ENOEXEC);
	unlink(path);
	assert_int_equal(elfsyms_resolve("/nonexistent/bin", "main", 0, &f), -ENOENT);
	assert_int_equal(elfsyms_resolve("/proc/self/exe", "no_such_function_here", 0, &f),
			 -ENOENT);
	assert_int_equal(elfsyms_resolve("no-such-library.so.9", "f", 0, &f), -ENOENT);
}

/* FILE:0xOFFSET names the function holding the offset and checks its boundaries. */
static void file_offset_form(void **state)
{
	struct elf_func a, b;

	assert_int_equal(elfsyms_resolve("/proc/self/exe", "elfsyms_probe_me", 0, &a), 0);
	assert_int_equal(elfsyms_resolve_file_offset("/proc/self/exe", a.file_offset, &b), 0);
	assert_string_equal(b.symbol, "elfsyms_probe_me");
	assert_int_equal(b.offset, 0);
	assert_int_equal(b.vaddr, a.vaddr);
	assert_int_equal(b.file_offset, a.file_offset);
	elf_func_free(&b);
	assert_int_equal(elfsyms_resolve_file_offset("/proc/self/exe", a.file_offset + 1, &b),
			 -EINVAL);
	/* The ELF header is no code. */
	assert_int_equal(elfsyms_resolve_file_offset("/proc/self/exe", 0, &b), -EINVAL);
	elf_func_free(&a);
}

static char self_path[PATH_MAX];
static char tmp_dir[] = "/tmp/cp-elfsyms.XXXXXX";

static int run(const char *fmt, ...)
{
	char cmd[4 * PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/*
 * A stripped copy of this test: no symbol at all, so a file offset is placed by the unwind
 * table; with a .gnu_debuglink to a debug file in .debug/, the name is found again.
 */
static void stripped_file(void **state)
{
	char stripped[PATH_MAX], linked[PATH_MAX], debug[PATH_MAX];
	struct elf_func a, b;
	ssize_t n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);

	assert_true(n > 0);
	self_path[n] = 0;
	if (!mkdtemp(tmp_dir) || run("objcopy --version >/dev/null 2>&1")) {
		print_message("skipped: needs objcopy (binutils) and /tmp\n");
		skip();
	}
	snprintf(stripped, sizeof(stripped), "%s/stripped", tmp_dir);
	snprintf(linked, sizeof(linked), "%s/linked", tmp_dir);
	snprintf(debug, sizeof(debug), "%s/.debug", tmp_dir);
	assert_int_equal(mkdir(debug, 0755), 0);
	snprintf(debug, sizeof(debug), "%s/.debug/linked.debug", tmp_dir);
	assert_int_equal(run("objcopy --strip-all %s %s", self_path, stripped), 0);
	assert_int_equal(run("objcopy --only-keep-debug %s %s", self_path, debug), 0);
	assert_int_equal(
		run("objcopy --strip-all --add-gnu-debuglink=%s %s %s", debug, self_path, linked),
		0);

	assert_int_equal(elfsyms_resolve("/proc/self/exe", "elfsyms_probe_me", 0, &a), 0);
	/* Stripped: no name, but the unwind table knows where the function starts. */
	assert_int_equal(elfsyms_resolve(stripped, "elfsyms_probe_me", 0, &b), -ENOENT);
	assert_int_equal(elfsyms_resolve_file_offset(stripped, a.file_offset, &b), 0);
	assert_null(b.symbol);
	assert_int_equal(b.vaddr, a.vaddr);
	assert_int_equal(b.offset, 0);
	elf_func_free(&b);
	assert_int_equal(elfsyms_resolve_file_offset(stripped, a.file_offset + 1, &b), -EINVAL);
	/* The debug link: found beside the file, in .debug/, and the symbol is there again. */
	assert_int_equal(elfsyms_resolve(linked, "elfsyms_probe_me", 0, &b), 0);
	assert_int_equal(b.file_offset, a.file_offset);
	assert_int_equal(b.size, a.size);
	elf_func_free(&b);
	elf_func_free(&a);
	run("rm -rf %s", tmp_dir);
}

/*
 * The IFUNC resolver run in-process agrees with the loader's own binding, and (with libc6-dbg)
 * the implementation's name resolves to code whose bytes are those memmove runs here.
 */
static void ifunc_and_debug_file(void **state)
{
	void *(*volatile mm)(void *, const void *, size_t) = memmove;
	const char *names[8];
	struct elf_symbols syms;
	struct elf_func f;
	unsigned char file_bytes[32];
	uint64_t impl;
	Dl_info info;
	char *libc;
	size_t n;
	Elf *elf;
	int fd;

	/* dladdr on the bound memmove: the object that holds what this process really calls. */
	assert_true(dladdr((void *)mm, &info) != 0);
	libc = elfsyms_find_file(info.dli_fname);
	assert_non_null(libc);
	assert_int_equal(ifunc_resolve_here(libc, "memmove", &impl), 0);
	assert_int_equal(impl, (uint64_t)((uintptr_t)mm - (uintptr_t)info.dli_fbase));
	assert_int_equal(ifunc_resolve_here("/proc/self/exe", "memmove", &impl), -ENOENT);
	assert_int_equal(ifunc_resolve_here(libc, "memmove", &impl), 0);

	fd = open(libc, O_RDONLY);
	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	assert_non_null(elf);
	elf_symbols_init(&syms, libc, elf);
	n = elf_symbols_at(&syms, impl, names, 8);
	if (!n) {
		print_message("skipped: no debug file for %s (%s): install libc6-dbg\n", libc,
			      syms.debug_why ?: "?");
		elf_symbols_release(&syms);
		elf_end(elf);
		close(fd);
		free(libc);
		skip();
	}
	assert_int_equal(elfsyms_resolve(libc, names[0], 0, &f), 0);
	assert_int_equal(f.vaddr, impl);
	assert_int_equal(pread(fd, file_bytes, sizeof(file_bytes), (off_t)f.file_offset),
			 sizeof(file_bytes));
	assert_memory_equal(file_bytes, (const void *)mm, sizeof(file_bytes));
	elf_func_free(&f);
	elf_symbols_release(&syms);
	elf_end(elf);
	close(fd);
	free(libc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pie_offset_matches_memory),
		cmocka_unit_test(offset_inside_function),
		cmocka_unit_test(shared_library_by_name),
		cmocka_unit_test(refusals),
		cmocka_unit_test(file_offset_form),
		cmocka_unit_test(stripped_file),
		cmocka_unit_test(ifunc_and_debug_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
