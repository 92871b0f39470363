// SPDX-License-Identifier: GPL-2.0
/* zeroread.c: reads /dev/zero through three frames of its own, with frame pointers (user stacks) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * Built with frame pointers (the Makefile's -fno-omit-frame-pointer), so that the kernel's walk
 * of the user stack (record --user-stacks, perf record -g) finds main > zr_outer > zr_inner
 * exactly; zr_inner makes the read system call itself, so the sampled user IP is in it, not in
 * libc.
 */
static char buf[1 << 20];

/* A call, so that zr_inner is no leaf: gcc 12 gives leaves no frame whatever it is told. */
__attribute__((noinline)) void zr_touch(void *p)
{
	__asm__ volatile("" ::"r"(p) : "memory");
}

__attribute__((noinline)) long zr_inner(int fd, unsigned long size)
{
	long ret;

	zr_touch(buf);
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_read), "D"((long)fd), "S"(buf), "d"(size)
			 : "rcx", "r11", "memory");
	return ret;
}

__attribute__((noinline)) long zr_outer(int fd, unsigned long size, unsigned long count)
{
	unsigned long k;
	long got = 0;

	for (k = 0; k < count; k++)
		got += zr_inner(fd, size);
	__asm__ volatile("" ::: "memory");
	return got;
}

int main(int argc, char **argv)
{
	unsigned long size = argc > 1 ? strtoul(argv[1], NULL, 0) : 4096;
	unsigned long count = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000;
	int fd = open("/dev/zero", O_RDONLY);
	struct timespec cpu;

	if (argc > 3 || size > sizeof(buf) || fd < 0) {
		fprintf(stderr, "usage: zeroread [SIZE (<= %zu) [COUNT]]: reads /dev/zero\n",
			sizeof(buf));
		return 2;
	}
	if (zr_outer(fd, size, count) != (long)(size * count))
		return 1;
	/*
	 * The CPU time this process really got (the scheduler's own count, not ticks): a test
	 * derives the samples it expects from it, however busy the machine was.
	 */
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu))
		return 1;
	printf("zeroread: %lu x %lu bytes, cpu %lld us\n", count, size,
	       (long long)cpu.tv_sec * 1000000 + cpu.tv_nsec / 1000);
	return 0;
}
