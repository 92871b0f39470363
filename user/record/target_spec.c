// SPDX-License-Identifier: GPL-2.0
/* target_spec.c: the --uprobe target syntax, parsed in exactly one place */
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/regs.h"
#include "target_spec.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int parse_option(char *opt, struct target_spec *t, char *err, size_t errlen)
{
	char *val = strchr(opt, '=');
	int reg;

	if (!val)
		return fail(err, errlen, "option '%s' needs a value (len=, dst= or src=)", opt);
	*val++ = 0;
	reg = reg_parse(val);
	if (reg < 0)
		return fail(err, errlen,
			    "'%s' is not an argument (arg0..arg5, numbered from 0 as in bpftrace: "
			    "memcpy's length is arg2) or register (rax..r15)",
			    val);
	if (!strcmp(opt, "len")) {
		if (reg == CP_REG_NONE)
			return fail(err, errlen, "len=none: the length is what copyprof counts");
		t->len_reg = reg;
	} else if (!strcmp(opt, "dst")) {
		t->dst_reg = reg;
	} else if (!strcmp(opt, "src")) {
		t->src_reg = reg;
	} else {
		return fail(err, errlen, "unknown option '%s' (expected len=, dst= or src=)", opt);
	}
	return 0;
}

/* PATH:0xOFFSET (C symbols never start with a digit): the offset is into the file. */
static int parse_file_offset(const char *path, const char *num, struct target_spec *t, char *err,
			     size_t errlen)
{
	char *end;

	errno = 0;
	t->file_offset = strtoull(num, &end, 0);
	if (*end == '+')
		return fail(err, errlen, "'%s': a file offset takes no +OFF (add it to the offset)",
			    num);
	if (errno || *end)
		return fail(err, errlen, "file offset '%s' is not a number", num);
	t->at_file_offset = true;
	t->path = strdup(path);
	if (asprintf(&t->symbol, "0x%llx", (unsigned long long)t->file_offset) < 0)
		t->symbol = NULL;
	return t->path && t->symbol ? 0 : -ENOMEM;
}

static int parse_location(char *loc, bool kernel, struct target_spec *t, char *err, size_t errlen)
{
	char *colon = strrchr(loc, ':'), *sym = loc, *plus, *end;

	if (colon) {
		if (colon == loc || !colon[1])
			return fail(err, errlen,
				    kernel ? "'%s' is not [MODULE:]FUNC[+OFF]"
					   : "'%s' is not PATH:SYMBOL[+OFF]",
				    loc);
		*colon = 0;
		sym = colon + 1;
	} else if (!kernel) {
		/* A kernel function needs no path (the module is optional); a user one does. */
		return fail(err, errlen, "'%s' is not PATH:SYMBOL[+OFF]", loc);
	}
	if (!kernel && *sym >= '0' && *sym <= '9')
		return parse_file_offset(loc, sym, t, err, errlen);
	plus = strchr(sym, '+');
	if (plus) {
		*plus = 0;
		errno = 0;
		t->offset = strtoull(plus + 1, &end, 0);
		if (errno || !plus[1] || *end)
			return fail(err, errlen, "offset '%s' is not a number", plus + 1);
	}
	if (!*sym)
		return fail(err, errlen, "empty symbol name");
	t->path = colon ? strdup(loc) : NULL;
	t->symbol = strdup(sym);
	return (t->path || !colon) && t->symbol ? 0 : -ENOMEM;
}

static int parse(const char *text, bool kernel, struct target_spec *t, char *err, size_t errlen)
{
	char *copy = strdup(text), *opt, *save = NULL;
	bool src_given = false;
	int ret;

	*t = (struct target_spec){ .len_reg = CP_REG_ARG2,
				   .dst_reg = CP_REG_ARG0,
				   .src_reg = CP_REG_ARG1 };
	if (!copy)
		return -ENOMEM;
	ret = parse_location(strtok_r(copy, ",", &save) ?: copy, kernel, t, err, errlen);
	while (!ret && (opt = strtok_r(NULL, ",", &save))) {
		src_given |= !strncmp(opt, "src=", 4);
		ret = parse_option(opt, t, err, errlen);
	}
	/* clear_user(dst, len) and friends have no source. */
	if (!ret && !src_given && reg_len_is_clear_like(reg_name(t->len_reg)))
		t->src_reg = CP_REG_NONE;
	free(copy);
	if (ret)
		target_spec_free(t);
	return ret;
}

int target_spec_parse(const char *text, struct target_spec *t, char *err, size_t errlen)
{
	return parse(text, false, t, err, errlen);
}

int target_spec_parse_kernel(const char *text, struct target_spec *t, char *err, size_t errlen)
{
	return parse(text, true, t, err, errlen);
}

void target_spec_free(struct target_spec *t)
{
	free(t->path);
	free(t->symbol);
	t->path = t->symbol = NULL;
}
