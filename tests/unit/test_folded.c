// SPDX-License-Identifier: GPL-2.0
/* test_folded.c: the one folded-line parser: fields, malformed lines, sums, merged frames */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "folded.h"

static int parse(const char *s, struct folded_line *l, const char **why)
{
	*why = NULL;
	return folded_parse_line(s, strlen(s), l, why);
}

static void fields(void **state)
{
	struct folded_line l;
	const char *why;

	assert_int_equal(parse("a;b;c 12\n", &l, &why), 1);
	assert_int_equal(l.stack_len, 5);
	assert_memory_equal(l.stack, "a;b;c", 5);
	assert_true(l.count == 12);
	/* Frames may hold spaces (C++ signatures, "[unknown]"): the count is the last field. */
	assert_int_equal(parse("main;operator new(unsigned long) \t 7\r\n", &l, &why), 1);
	assert_int_equal(l.stack_len, strlen("main;operator new(unsigned long)"));
	assert_true(l.count == 7);
	assert_int_equal(parse("a;b 1.5", &l, &why), 1);
	assert_true(l.count == 1.5);
	assert_int_equal(parse("solo 3", &l, &why), 1);
	assert_int_equal(l.stack_len, 4);
	assert_int_equal(parse("   \r\n", &l, &why), 0);
	assert_int_equal(parse("", &l, &why), 0);
}

static void malformed(void **state)
{
	static const struct {
		const char *line, *why;
	} bad[] = {
		{ "a;b;c\n", "no count after the stack" },
		{ "42", "no count after the stack" },
		{ "a;b x12", "the last field is not a count" },
		{ "a;b -3", "the last field is not a count" },
		{ "a;b 1e3", "the last field is not a count" },
		{ "a;b 10 20", "two counts (a differential folded file)" },
		{ "   5", "no frames before the count" },
		{ "a;;b 3", "an empty frame" },
		{ ";a 3", "an empty frame" },
		{ "a; 3", "an empty frame" },
	};
	struct folded_line l;
	const char *why;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i].line, &l, &why), -1);
		assert_string_equal(why, bad[i].why);
	}
	assert_int_equal(folded_parse_line("a\0b 3", 5, &l, &why), -1);
	assert_string_equal(why, "a NUL byte");
}

static const char input[] = "main;foo;bar 3\n"
			    "main;foo;bar 2\n"
			    "main;foo 4\n"
			    "main;baz 1\n"
			    "garbage\n"
			    "main;foo;qux 10 20\n"
			    "\n"
			    "other 0.5\n"
			    "main;foo;bar 0\n"
			    "other 4.5";

static const struct fg_node *child(const struct fg_node *n, const char *name)
{
	size_t i;

	for (i = 0; i < n->nr_children; i++)
		if (!strcmp(n->children[i]->name, name))
			return n->children[i];
	fail_msg("no frame %s under %s", name, n->name);
	return NULL;
}

static void read_merge_sum(void **state)
{
	FILE *f = fmemopen((void *)input, sizeof(input) - 1, "r");
	struct folded_stats st = { 0 };
	struct fg_tree *t = fg_tree_new("all");
	const struct fg_node *main_, *foo;

	assert_non_null(f);
	assert_int_equal(folded_read(f, "input", t, &st), 0);
	fclose(f);
	assert_int_equal(st.lines, 10);
	assert_int_equal(st.stacks, 7);
	assert_int_equal(st.malformed, 2);
	assert_int_equal(st.first_bad, 5);
	assert_string_equal(st.first_bad_why, "no count after the stack");
	assert_string_equal(st.first_bad_text, "garbage");
	assert_true(st.total == 15);
	/* Same frames are one frame; weights are inclusive; siblings sorted by name. */
	assert_true(t->root.weight == 15);
	assert_int_equal(t->nr_nodes, 5);
	assert_int_equal(t->root.nr_children, 2);
	assert_string_equal(t->root.children[0]->name, "main");
	assert_string_equal(t->root.children[1]->name, "other");
	main_ = child(&t->root, "main");
	assert_true(main_->weight == 10);
	assert_string_equal(main_->children[0]->name, "baz");
	foo = child(main_, "foo");
	assert_true(foo->weight == 9);
	assert_int_equal(foo->nr_children, 1);
	assert_true(child(foo, "bar")->weight == 5);
	assert_true(child(&t->root, "other")->weight == 5);
	assert_int_equal(fg_tree_depth(t), 3);
	fg_tree_free(t);
}

/* Keys order siblings before names: length frames are drawn by length, not alphabetically. */
static void keys_order_siblings(void **state)
{
	struct fg_tree *t = fg_tree_new("all");
	struct fg_node *a, *b, *c;

	c = fg_tree_child(t, &t->root, "zzz", 3, 0, FG_KIND_FRAME);
	b = fg_tree_child(t, &t->root, "1024 B", 6, 1025, FG_KIND_LENGTH);
	a = fg_tree_child(t, &t->root, "16 B", 4, 17, FG_KIND_LENGTH);
	assert_ptr_equal(fg_tree_child(t, &t->root, "16 B", 4, 17, FG_KIND_LENGTH), a);
	assert_ptr_equal(t->root.children[0], c);
	assert_ptr_equal(t->root.children[1], a);
	assert_ptr_equal(t->root.children[2], b);
	fg_tree_add(a, 2, 10, 11, 2);
	fg_tree_add(b, 3, 30, 20, 3);
	assert_true(t->root.weight == 5 && t->root.today_ns == 40 && t->root.at_ns == 31);
	assert_true(t->root.calls == 5);
	fg_tree_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields),
		cmocka_unit_test(malformed),
		cmocka_unit_test(read_merge_sum),
		cmocka_unit_test(keys_order_siblings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
