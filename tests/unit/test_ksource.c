// SPDX-License-Identifier: GPL-2.0
/*
 * test_ksource.c: build ids, the debug-file search (kdebuginfo.c) and kernel-site annotation
 * (ksource.c) on a made-up debug root whose "vmlinux" and "module" are copies of this binary,
 * which has DWARF: lines, the inline chain and a stage label must come out exactly.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lib/buildid.h"
#include "lib/elfsyms.h"
#include "kernel/kdebuginfo.h"
#include "profile/ksource.h"
#include "profile/profile.h"
#include "kernel/srcline.h"
#define TESTDIR_NAME "ksource"
#include "testdir.h"

#define REL "9.9.9-copyprof-test"

static volatile int sink;

static inline __attribute__((always_inline)) void stage_copy(int n)
{
	__asm__ volatile("" ::: "memory");
	sink = n * 5 + 1;
	__asm__ volatile("" ::: "memory");
}

/* Like ZSTD_decompressStream: a stage is a block whose variable names it, around an inlined copy. */
enum { STAGE_CALL_LINE = __LINE__ + 6 };
__attribute__((noinline)) int ksource_staged(int x)
{
	if (x > 3) {
		int flushed_total = x * 3;

		stage_copy(flushed_total);
		sink += flushed_total;
	}
	return sink;
}

static char self_id[BUILDID_HEX_MAX];

static char self[PATH_MAX]; /* this binary: /proc/self/exe would be the shell's */

/* Runs shell command @fmt, with "@" replaced by the scratch folder and "%" by this binary. */
static void sh(const char *fmt)
{
	char cmd[3 * PATH_MAX], *o = cmd;

	for (; *fmt && o < cmd + sizeof(cmd) - PATH_MAX; fmt++)
		o = *fmt == '@'	  ? stpcpy(o, dir)
		    : *fmt == '%' ? stpcpy(o, self)
				  : (*o = *fmt, o + 1);
	*o = 0;
	assert_int_equal(system(cmd), 0);
}

/* A debug root: usr/lib/debug/boot/vmlinux-REL and a module my-mod.ko, both this binary. */
static int root_setup(void **state)
{
	if (testdir_setup(state) || buildid_elf("/proc/self/exe", self_id, sizeof(self_id)) ||
	    !realpath("/proc/self/exe", self))
		return -1;
	sh("mkdir -p @/usr/lib/debug/boot @/usr/lib/debug/lib/modules/" REL "/kernel/fs/mine "
	   "@/stripped");
	sh("cp % @/usr/lib/debug/boot/vmlinux-" REL);
	sh("cp % @/usr/lib/debug/lib/modules/" REL "/kernel/fs/mine/my-mod.ko");
	sh("objcopy --strip-debug % @/stripped/vmlinux");
	return 0;
}

/* Hand-made notes: a foreign note first, then GNU's build id 0xde 0xad 0xbe 0xef. */
static void notes_parse(void **state)
{
	static const unsigned char notes[] = {
		4, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 'X', 'e', 'n', 0, 1,    2,	  0,	0,
		4, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 0xde, 0xad, 0xbe, 0xef,
	};
	char hex[BUILDID_HEX_MAX];

	assert_int_equal(buildid_from_notes(notes, sizeof(notes), hex, sizeof(hex)), 0);
	assert_string_equal(hex, "deadbeef");
	assert_int_equal(buildid_from_notes(notes, 20, hex, sizeof(hex)), -ENOENT);
	assert_int_equal(buildid_from_notes(notes, sizeof(notes) - 1, hex, sizeof(hex)), -ENOENT);
	assert_int_equal(strlen(self_id), 40); /* gcc's default: sha1 */
}

static void find_in_root(void **state)
{
	const char *dirs[] = { dir };
	char *why = NULL, *p;

	p = kdebuginfo_find("vmlinux", REL, self_id, dirs, 1, NULL);
	assert_non_null(p);
	assert_string_equal(p, path_in_dir("usr/lib/debug/boot/vmlinux-" REL));
	free(p);
	/* Module files write '-' where module names have '_'. */
	p = kdebuginfo_find("my_mod", REL, NULL, dirs, 1, NULL);
	assert_non_null(p);
	assert_non_null(strstr(p, "kernel/fs/mine/my-mod.ko"));
	free(p);
	/* Another build's file is refused and said so. */
	p = kdebuginfo_find("vmlinux", REL, "00112233", dirs, 1, &why);
	assert_null(p);
	assert_non_null(why);
	assert_non_null(strstr(why, "is another build"));
	free(why);
	/* Another release has no file at all. */
	assert_null(kdebuginfo_find("vmlinux", "1.0.0-none", NULL, dirs, 1, NULL));
}

/* A file given directly: used when it has DWARF, refused (saying why) when stripped. */
static void find_direct_file(void **state)
{
	char *g = strdup(path_in_dir("usr/lib/debug/boot/vmlinux-" REL)), *why = NULL, *p;
	const char *good[] = { g }, *bad[] = { path_in_dir("stripped/vmlinux") };

	p = kdebuginfo_find("vmlinux", NULL, NULL, good, 1, NULL);
	assert_non_null(p);
	free(p);
	/* A vmlinux given directly is not taken for a module. */
	assert_null(kdebuginfo_find("my_mod", NULL, NULL, good, 1, NULL));
	assert_null(kdebuginfo_find("vmlinux", NULL, NULL, bad, 1, &why));
	assert_non_null(strstr(why, "has no DWARF"));
	free(why);
	free(g);
}

/* The address in ksource_staged where the inlined stage_copy runs. */
static uint64_t staged_copy_offset(void)
{
	struct elf_func f;
	uint64_t off;

	assert_int_equal(elfsyms_resolve("/proc/self/exe", "ksource_staged", 0, &f), 0);
	for (off = 0; off < f.size; off++) {
		struct source_pos *src = srcline_lookup(f.path, f.vaddr + off);
		bool hit = src && src->nr_inlined == 1;

		source_pos_free(src);
		if (hit)
			break;
	}
	elf_func_free(&f);
	assert_true(off < f.size);
	return off;
}

/* record's or report's annotation: source, inline chain and the preset's label. */
static void annotate_sites(void **state)
{
	const char *dirs[] = { dir };
	struct profile *p = profile_new();
	struct profile_site *s, *other;

	write_text("staged.preset", "description test\nsite ksource_staged\n"
				    "label ksource_staged no_such_var never_this\n"
				    "label ksource_staged flushed_total stage_flush\n");
	setenv("COPYPROF_PRESETS", dir, 1);
	p->meta.kernel = strdup(REL);
	s = profile_add_site(p);
	s->target = strdup("vmlinux");
	s->symbol = strdup("ksource_staged");
	s->offset = staged_copy_offset();
	s->mechanism = strdup("kprobe");
	s->build_id = strdup(self_id);
	other = profile_add_site(p); /* a uprobe site is not the kernel's */
	other->target = strdup("/bin/true");
	other->symbol = strdup("main");
	other->mechanism = strdup("uprobe");
	assert_int_equal(ksource_annotate(p, dirs, 1), 1);
	s = &p->sites[0];
	assert_non_null(s->source);
	assert_int_equal(s->source->nr_inlined, 1);
	assert_string_equal(s->source->inlined[0].function, "stage_copy");
	assert_int_equal(s->source->inlined[0].line, STAGE_CALL_LINE);
	assert_string_equal(s->label, "stage_flush");
	assert_null(p->sites[1].source);
	/* Annotating again changes nothing: sites with lines are left alone. */
	assert_int_equal(ksource_annotate(p, dirs, 1), 0);
	profile_free(p);
	unsetenv("COPYPROF_PRESETS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(notes_parse),
		cmocka_unit_test(find_in_root),
		cmocka_unit_test(find_direct_file),
		cmocka_unit_test(annotate_sites),
	};

	return cmocka_run_group_tests(tests, root_setup, testdir_teardown);
}
