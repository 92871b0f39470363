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
#include "lib/elfsyms.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pie_offset_matches_memory),
		cmocka_unit_test(offset_inside_function),
		cmocka_unit_test(shared_library_by_name),
		cmocka_unit_test(refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
