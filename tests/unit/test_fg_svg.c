// SPDX-License-Identifier: GPL-2.0
/* test_fg_svg.c: flame graph layout (exact widths), labels cut before escaping, colours, the SVG */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "palette.h"
#include "svg.h"
#include "lib/xml_escape.h"

/* all 4 = a 1 + b 3; b 3 = c 2 + 1 of its own; c 2 = d 1.5 + e 0.5 */
static struct fg_tree *hand_tree(void)
{
	struct fg_tree *t = fg_tree_new("all");
	struct fg_node *a, *b, *c, *d, *e;

	b = fg_tree_child(t, &t->root, "b", 1, 0, FG_KIND_FRAME);
	a = fg_tree_child(t, &t->root, "a", 1, 0, FG_KIND_FRAME);
	c = fg_tree_child(t, b, "c", 1, 0, FG_KIND_FRAME);
	d = fg_tree_child(t, c, "d", 1, 0, FG_KIND_FRAME);
	e = fg_tree_child(t, c, "e", 1, 0, FG_KIND_FRAME);
	fg_tree_add(a, 1, 0, 0, 0);
	fg_tree_add(b, 1, 0, 0, 0);
	fg_tree_add(d, 1.5, 0, 0, 0);
	fg_tree_add(e, 0.5, 0, 0, 0);
	return t;
}

static void exact_widths(void **state)
{
	static const struct {
		const char *name;
		unsigned depth;
		double x, w;
	} want[] = {
		/* 1180 px for 4 units: 295 px a unit, from x = 10 */
		{ "all", 0, 10, 1180 }, { "a", 1, 10, 295 },	{ "b", 1, 305, 885 },
		{ "c", 2, 305, 590 },	{ "d", 3, 305, 442.5 }, { "e", 3, 747.5, 147.5 },
	};
	struct fg_tree *t = hand_tree();
	struct fg_rect *r;
	size_t nr, omitted, i;

	assert_int_equal(fg_layout(t, 1200, &r, &nr, &omitted), 0);
	assert_int_equal(nr, 6);
	assert_int_equal(omitted, 0);
	for (i = 0; i < nr; i++) {
		assert_string_equal(r[i].node->name, want[i].name);
		assert_int_equal(r[i].depth, want[i].depth);
		assert_true(r[i].x == want[i].x);
		assert_true(r[i].w == want[i].w);
	}
	free(r);
	/* Half the width: every width halves (less the margins). */
	assert_int_equal(fg_layout(t, 610, &r, &nr, &omitted), 0);
	assert_true(r[2].w == 442.5 && r[4].w == 221.25 && r[5].x == 378.75);
	free(r);
	fg_tree_free(t);
}

/* 200,000 frames deep (issue 13: recursion overflowed the stack), plus a two-frame branch. */
static void deep_stack(void **state)
{
	struct fg_tree *t = fg_tree_new("all");
	struct fg_node *n = &t->root, *side;
	struct fg_rect *r;
	size_t nr, omitted, i;
	char name[16];

	for (i = 0; i < 200000; i++) {
		int len = snprintf(name, sizeof(name), "f%zu", i);

		n = fg_tree_child(t, n, name, (size_t)len, 0, FG_KIND_FRAME);
		assert_non_null(n);
	}
	fg_tree_add(n, 3, 0, 0, 0);
	side = fg_tree_child(t, fg_tree_child(t, &t->root, "zz", 2, 0, FG_KIND_FRAME), "y", 1, 0,
			     FG_KIND_FRAME);
	fg_tree_add(side, 1, 0, 0, 0);
	assert_int_equal(fg_tree_depth(t), 200000);
	assert_int_equal(fg_layout(t, 1200, &r, &nr, &omitted), 0);
	assert_int_equal(nr, 200003);
	assert_int_equal(omitted, 0);
	/* Parents first, depth-first: the deep stack, then the branch. */
	assert_int_equal(r[200000].depth, 200000);
	assert_string_equal(r[200000].node->name, "f199999");
	assert_string_equal(r[200001].node->name, "zz");
	assert_int_equal(r[200002].depth, 2);
	assert_float_equal(r[200001].x, r[1].x + r[1].w, 1e-9);
	free(r);
	fg_tree_free(t);
}

static void narrow_frames_left_out(void **state)
{
	struct fg_tree *t = fg_tree_new("all");
	struct fg_node *big, *tiny;
	struct fg_rect *r;
	size_t nr, omitted;

	big = fg_tree_child(t, &t->root, "big", 3, 0, FG_KIND_FRAME);
	tiny = fg_tree_child(t, &t->root, "tiny", 4, 0, FG_KIND_FRAME);
	fg_tree_add(big, 99999, 0, 0, 0);
	/* 1180 / 100000 px = 0.0118 px: below FG_MIN_WIDTH, it and its child are left out */
	fg_tree_add(fg_tree_child(t, tiny, "above", 5, 0, FG_KIND_FRAME), 1, 0, 0, 0);
	assert_int_equal(fg_layout(t, 1200, &r, &nr, &omitted), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(omitted, 1);
	free(r);
	fg_tree_free(t);
	t = fg_tree_new("all");
	assert_int_equal(fg_layout(t, 1200, &r, &nr, &omitted), -EINVAL);
	fg_tree_free(t);
}

static void labels(void **state)
{
	char buf[64];

	/* floor((w - 6) / (12 * 0.59)) characters fit */
	fg_label_fit("abcdefghij", 100, buf, sizeof(buf)); /* 13 fit */
	assert_string_equal(buf, "abcdefghij");
	fg_label_fit("abcdefghij", 50, buf, sizeof(buf)); /* 6 fit: 4 and ".." */
	assert_string_equal(buf, "abcd..");
	fg_label_fit("abcdefghij", 27.3, buf, sizeof(buf)); /* 3 fit */
	assert_string_equal(buf, "a..");
	fg_label_fit("abcdefghij", 26, buf, sizeof(buf)); /* 2 fit: nothing */
	assert_string_equal(buf, "");
	/* Characters, not bytes: never half a UTF-8 sequence. */
	fg_label_fit("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 50, buf,
		     sizeof(buf));
	assert_string_equal(buf, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9..");
}

static char *escaped(const char *s, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	xml_escape(f, s, len);
	fclose(f);
	return buf;
}

static void escape_after_truncation(void **state)
{
	char label[64], *out;

	out = escaped("a&b<c>d\"e'f", 11);
	assert_string_equal(out, "a&amp;b&lt;c&gt;d&quot;e&apos;f");
	free(out);
	/* Bytes that are not UTF-8, and controls XML forbids, become U+FFFD. */
	out = escaped("x\xffy\x01z\xc3", 6);
	assert_string_equal(out, "x\xef\xbf\xbdy\xef\xbf\xbdz\xef\xbf\xbd");
	free(out);
	/* Cut first, then escape: the '&' cut off leaves no broken entity behind. */
	fg_label_fit("std::vector<int>&&", 85, label, sizeof(label)); /* 11 fit */
	assert_string_equal(label, "std::vect..");
	fg_label_fit("a<b&c>d", 70, label, sizeof(label)); /* 9 fit: whole */
	out = escaped(label, strlen(label));
	assert_string_equal(out, "a&lt;b&amp;c&gt;d");
	free(out);
}

static void colours(void **state)
{
	struct fg_rgb a = fg_palette_name(FG_KIND_FRAME, "vfs_read"),
		      b = fg_palette_name(FG_KIND_FRAME, "vfs_read"),
		      l = fg_palette_name(FG_KIND_LENGTH, "vfs_read"), c;

	assert_memory_equal(&a, &b, sizeof(a));
	assert_true(a.r >= 210 && a.b <= 70);  /* warm */
	assert_true(l.b >= 200 && l.r <= 130); /* blue */
	c = fg_palette_delta(0, 0.5);
	assert_true(c.r == 215 && c.g == 215 && c.b == 210);
	c = fg_palette_delta(-0.5, 0.5);
	assert_true(c.r == 40 && c.g == 170 && c.b == 60);
	c = fg_palette_delta(-0.9, 0.5); /* beyond the full colour */
	assert_true(c.r == 40 && c.g == 170 && c.b == 60);
	c = fg_palette_delta(1.0, 0.5);
	assert_true(c.r == 220 && c.g == 45 && c.b == 40);
	c = fg_palette_delta(-0.25, 0.5); /* half-way from grey to green */
	assert_true(c.r == 128 && c.g == 193 && c.b == 135);
	c = fg_palette_delta(-0.25, 0.25); /* the scale is the data's: full green */
	assert_true(c.r == 40 && c.g == 170 && c.b == 60);
	c = fg_palette_delta(0.3, 0); /* no change anywhere: grey */
	assert_true(c.r == 215 && c.g == 215 && c.b == 210);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

static void whole_svg(void **state)
{
	struct fg_svg_opts o = { .title = "T <1>", .unit = "calls" };
	struct fg_tree *t = hand_tree();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	size_t drawn, omitted;

	assert_int_equal(fg_svg_write(f, t, &o, &drawn, &omitted), 0);
	fclose(f);
	assert_int_equal(drawn, 6);
	assert_int_equal(omitted, 0);
	assert_int_equal(count(buf, "<g class=\"f\">"), 6);
	assert_non_null(strstr(buf, "<title>b\n3 calls, 75.00%</title><rect x=\"305.00\" y=\"92\" "
				    "width=\"885.00\" height=\"15\""));
	assert_non_null(strstr(buf, "<title>d\n1.50 calls, 37.50%</title>"));
	/* four levels: 60 px on top, 4 x 16, 36 below */
	assert_non_null(strstr(buf, "height=\"160\" viewBox=\"0 0 1200 160\""));
	assert_non_null(strstr(buf, "<text id=\"title\" x=\"600.0\" y=\"24\">T &lt;1&gt;</text>"));
	assert_non_null(strstr(buf, "<![CDATA[\n// SPDX-License-Identifier: GPL-2.0\n// fg.js"));
	assert_int_equal(count(buf, "]]>"), 1);
	free(buf);
	fg_tree_free(t);

	buf = NULL;
	f = open_memstream(&buf, &len);
	fg_svg_write_error(f, &o, "cannot read x.json: \"bad\" & <worse>");
	fclose(f);
	assert_non_null(strstr(buf,
			       ">Error: cannot read x.json: &quot;bad&quot; &amp; &lt;worse&gt;"
			       "</text>"));
	assert_null(strstr(buf, "class=\"f\""));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_widths),
		cmocka_unit_test(deep_stack),
		cmocka_unit_test(narrow_frames_left_out),
		cmocka_unit_test(labels),
		cmocka_unit_test(escape_after_truncation),
		cmocka_unit_test(colours),
		cmocka_unit_test(whole_svg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
