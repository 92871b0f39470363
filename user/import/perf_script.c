// SPDX-License-Identifier: GPL-2.0
/* perf_script.c: parse perf script's sample headers, call-chain lines and header comments */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib/line_reader.h"
#include "lib/log.h"
#include "perf_script.h"

#define KERNEL_HALF 0xffff800000000000ULL

struct cur {
	struct perf_sample s;
	size_t cap;
	bool open;
};

static bool all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return n > 0;
}

/* "[kernel.kallsyms]" -> vmlinux, "[btrfs]" -> btrfs, "[unknown]" -> NULL, paths as they are. */
static char *dso_name(const char *s, size_t n, bool *kernel)
{
	*kernel = false;
	if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
		if (!strncmp(s, "[kernel.", 8)) {
			*kernel = true;
			return strdup("vmlinux");
		}
		if (!strncmp(s, "[unknown]", n))
			return NULL;
		if (n == 6 && !strncmp(s, "[vdso]", 6))
			return strdup("[vdso]");
		if (memchr(s, '.', n) || !strncmp(s, "[vsyscall]", n) || !strncmp(s, "[heap]", n) ||
		    !strncmp(s, "[stack]", n))
			return strndup(s, n);
		*kernel = true; /* [btrfs]: a kernel module */
		return strndup(s + 1, n - 2);
	}
	return strndup(s, n);
}

static void frame_free(struct perf_frame *f)
{
	free((char *)f->sym);
	free((char *)f->dso);
}

static void sample_reset(struct cur *c)
{
	size_t i;

	for (i = 0; i < c->s.nr; i++)
		frame_free(&c->s.frames[i]);
	free((char *)c->s.comm);
	free((char *)c->s.event);
	c->s.comm = c->s.event = NULL;
	c->s.nr = 0;
	c->s.regs_abi = -1;
	c->s.regs_have = 0;
	memset(c->s.regs, 0, sizeof(c->s.regs));
	c->open = false;
}

/* "ADDR SYM[+0xOFF] (DSO)", "ADDR [unknown] (DSO)", "ADDR SYM (inlined)"; @p at ADDR. */
static int parse_frame(const char *p, struct perf_frame *f)
{
	const char *end = p + strlen(p), *sym, *paren, *plus;
	char *e;

	memset(f, 0, sizeof(*f));
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	f->ip = strtoull(p, &e, 16);
	if (e == p || !isspace((unsigned char)*e))
		return -EINVAL;
	sym = e;
	while (isspace((unsigned char)*sym))
		sym++;
	if (sym >= end)
		return -EINVAL;
	paren = NULL;
	if (end[-1] == ')') {
		const char *q;

		for (q = end - 1; q > sym; q--)
			if (q[0] == '(' && isspace((unsigned char)q[-1]))
				break;
		if (q > sym)
			paren = q;
	}
	if (paren) {
		size_t n = (size_t)(end - 1 - (paren + 1));

		if (n == 7 && !strncmp(paren + 1, "inlined", 7))
			f->inlined = true;
		else
			f->dso = dso_name(paren + 1, n, &f->kernel);
		end = paren;
		while (end > sym && isspace((unsigned char)end[-1]))
			end--;
	}
	if (f->ip >= KERNEL_HALF)
		f->kernel = true;
	if ((size_t)(end - sym) == 9 && !strncmp(sym, "[unknown]", 9))
		return 0;
	plus = NULL;
	for (const char *q = sym; q + 3 <= end; q++)
		if (q[0] == '+' && q[1] == '0' && q[2] == 'x')
			plus = q;
	if (plus) {
		f->off = strtoull(plus + 3, &e, 16);
		if (e != end)
			plus = NULL; /* "+0x" inside a C++ name, not an offset */
	}
	f->sym = strndup(sym, (size_t)((plus ?: end) - sym));
	return f->sym ? 0 : -ENOMEM;
}

static int add_frame(struct cur *c, const char *p)
{
	struct perf_frame f;
	int err = parse_frame(p, &f);

	if (err)
		return err;
	if (c->s.nr == PERF_SCRIPT_MAX_FRAMES) {
		frame_free(&f);
		return -EINVAL; /* a malformed line: no stack is this deep */
	}
	if (c->s.nr == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 32;
		struct perf_frame *n = realloc(c->s.frames, cap * sizeof(*n));

		if (!n) {
			frame_free(&f);
			return -ENOMEM;
		}
		c->s.frames = n;
		c->cap = cap;
	}
	c->s.frames[c->s.nr++] = f;
	return 0;
}

/* perf's x86 register names, in FLOW_* order. */
static const char *const reg_names[FLOW_NR_GPRS] = {
	"ax", "bx", "cx",  "dx",  "si",	 "di",	"bp",  "sp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

/* Does @p start a register dump: "ABI:" and a number? */
static bool is_regs(const char *p)
{
	return !strncmp(p, "ABI:", 4) && isdigit((unsigned char)p[4]);
}

/*
 * "ABI:2    AX:0x0    BX:0xffff888109058300 ..." (-F iregs). The first dump of a sample
 * counts; a later one (uregs) is ignored. -EINVAL if a token is not NAME:0xHEX: the sample
 * then keeps no registers rather than some of them.
 */
static int parse_regs(struct cur *c, const char *p)
{
	struct perf_sample *s = &c->s;
	uint64_t regs[FLOW_NR_GPRS] = { 0 };
	uint16_t have = 0;
	unsigned long abi;
	char *e;

	if (s->regs_abi >= 0)
		return 0;
	abi = strtoul(p + 4, &e, 10);
	if (*e && !isspace((unsigned char)*e))
		return -EINVAL;
	s->regs_abi = abi > 1000 ? 1000 : (int)abi;
	for (p = e; *p;) {
		size_t n, name;
		uint64_t v;
		int i;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (!n)
			break;
		name = strcspn(p, ":");
		if (name >= n || !name || strncmp(p + name, ":0x", 3) ||
		    !isxdigit((unsigned char)p[name + 3]))
			return -EINVAL;
		v = strtoull(p + name + 3, &e, 16);
		if (e != p + n)
			return -EINVAL;
		for (i = 0; i < FLOW_NR_GPRS; i++)
			if (strlen(reg_names[i]) == name && !strncasecmp(p, reg_names[i], name)) {
				regs[i] = v;
				have |= (uint16_t)(1u << i);
			}
		p += n;
	}
	if (s->regs_abi != 2) /* 0: none recorded; 1: 32-bit, other names and widths */
		return 0;
	memcpy(s->regs, regs, sizeof(regs));
	s->regs_have = have;
	return 0;
}

static bool has_control(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	return false;
}

/*
 * "COMM PID/TID [CPU] TIME: [PERIOD] EVENT: [ADDR SYM (DSO)]"; COMM may hold spaces, so it
 * ends at the first PID[/TID] token followed by [CPU] or TIME:. Returns -EINVAL if it is not one.
 */
static int parse_header(struct cur *c, char *line, bool *bad_regs)
{
	char *tok[64], *save, *p, *regs = NULL;
	size_t n = 0, i, j, comm_len;
	char *copy;

	/* Without a call chain, -F iregs goes on the sample line itself: " ABI:2 AX:0x..". */
	for (p = strstr(line, " ABI:"); p; p = strstr(p + 1, " ABI:"))
		if (is_regs(p + 1)) {
			regs = p + 1;
			*p = 0;
			break;
		}
	copy = strdup(line);
	if (!copy)
		return -ENOMEM;
	for (p = strtok_r(copy, " \t", &save); p && n < 64; p = strtok_r(NULL, " \t", &save))
		tok[n++] = p;
	for (i = 1; i < n; i++) {
		char *slash = strchr(tok[i], '/');
		size_t l = strlen(tok[i]);

		if (!(slash ? all_digits(tok[i], (size_t)(slash - tok[i])) &&
				      all_digits(slash + 1, strlen(slash + 1))
			    : all_digits(tok[i], l)))
			continue;
		if (i + 1 == n || tok[i + 1][0] == '[' || strchr(tok[i + 1], ':'))
			break;
	}
	if (i >= n)
		goto not_sample;
	c->s.pid = c->s.tid = atoi(tok[i]);
	if (strchr(tok[i], '/'))
		c->s.tid = atoi(strchr(tok[i], '/') + 1);
	comm_len = (size_t)(tok[i] - copy);
	while (comm_len && isspace((unsigned char)line[comm_len - 1]))
		comm_len--;
	c->s.comm = strndup(line, comm_len);
	j = i + 1;
	if (j < n && tok[j][0] == '[')
		c->s.cpu = atoi(tok[j++] + 1);
	if (j < n && isdigit((unsigned char)tok[j][0]) && strchr(tok[j], '.'))
		c->s.time = strtod(tok[j++], NULL);
	if (j < n && all_digits(tok[j], strlen(tok[j])))
		j++; /* period */
	/* Every format perf script prints a sample in names the event; text that does not is no sample. */
	if (j >= n || tok[j][strlen(tok[j]) - 1] != ':' || has_control(line, comm_len)) {
		free((char *)c->s.comm);
		c->s.comm = NULL;
		goto not_sample;
	}
	tok[j][strcspn(tok[j], ":")] = 0;
	c->s.event = strdup(tok[j++]);
	c->open = true;
	if (regs && parse_regs(c, regs) == -EINVAL)
		*bad_regs = true;
	/* Without a call chain, the one frame follows on the same line; an odd one is dropped. */
	if (j < n && isxdigit((unsigned char)tok[j][0]))
		(void)add_frame(c, line + (tok[j] - copy));
	free(copy);
	return 0;
not_sample:
	free(copy);
	if (regs)
		regs[-1] = ' '; /* the line as it was, for a frame or the message */
	return -EINVAL;
}

static int header_comment(const char *line, struct perf_header *h)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "# hostname : ", offsetof(struct perf_header, hostname) },
		{ "# os release : ", offsetof(struct perf_header, os_release) },
		{ "# cpudesc : ", offsetof(struct perf_header, cpu_desc) },
		{ "# cmdline : ", offsetof(struct perf_header, cmdline) },
		{ "# cpuid : ", offsetof(struct perf_header, cpuid) },
	};
	size_t i;

	for (i = 0; h && i < sizeof(keys) / sizeof(keys[0]); i++) {
		char **dst = (char **)((char *)h + keys[i].off);
		size_t kl = strlen(keys[i].key);

		if (strncmp(line, keys[i].key, kl) || *dst)
			continue;
		*dst = strndup(line + kl, strcspn(line + kl, "\n"));
		return *dst ? 0 : -ENOMEM;
	}
	return 0;
}

/* Inlined frames carry no DSO: they share the one of the real frame at their address. */
static void fix_inlined(struct perf_sample *s)
{
	size_t i, j;

	for (i = 0; i < s->nr; i++) {
		if (!s->frames[i].inlined || s->frames[i].dso)
			continue;
		for (j = i + 1; j < s->nr && s->frames[j].inlined; j++)
			;
		if (j < s->nr && s->frames[j].dso) {
			s->frames[i].dso = strdup(s->frames[j].dso);
			s->frames[i].kernel = s->frames[j].kernel;
		}
	}
}

static int flush(struct cur *c, perf_sample_fn fn, void *ctx, struct perf_script_stats *st)
{
	int ret = 0;

	if (c->open) {
		fix_inlined(&c->s);
		st->samples++;
		st->frames += c->s.nr;
		ret = fn(ctx, &c->s);
	}
	sample_reset(c);
	return ret;
}

static void bad_line(struct perf_script_stats *st, const char *line)
{
	st->malformed++;
	if (st->first_bad_line)
		return;
	st->first_bad_line = st->lines;
	snprintf(st->first_bad, sizeof(st->first_bad), "%.*s", (int)strcspn(line, "\n"), line);
	/* It goes into a message: no control bytes or broken UTF-8 on the terminal. */
	for (char *p = st->first_bad; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
}

/*
 * Without a call chain perf script pads COMM on the sample line ("          dd 16298/16298
 * [000] ..."). An indented line that parses as a sample line is one; this is tried before a
 * frame, as "dd" is a hex address too. Returns true if @p was one: *@ret is then what
 * flushing the previous sample returned, or -ENOMEM.
 */
static bool indented_header(struct cur *c, char *p, perf_sample_fn fn, void *ctx,
			    struct perf_script_stats *st, bool *bad_regs, int *ret)
{
	struct cur t = { .s = { .pid = -1, .tid = -1, .cpu = -1, .time = -1, .regs_abi = -1 } };
	int err = parse_header(&t, p, bad_regs);

	if (err) {
		sample_reset(&t);
		free(t.s.frames);
		*ret = err == -EINVAL ? 0 : err;
		return err != -EINVAL;
	}
	*ret = flush(c, fn, ctx, st);
	free(c->s.frames);
	*c = t;
	return true;
}

int perf_script_parse(FILE *f, const char *name, perf_sample_fn fn, void *ctx,
		      struct perf_header *hdr, struct perf_script_stats *st)
{
	struct cur c = { .s = { .pid = -1, .tid = -1, .cpu = -1, .time = -1, .regs_abi = -1 } };
	struct line_reader r;
	bool bad_regs, said = false;
	char *line;
	int ret = 0, err, more;

	memset(st, 0, sizeof(*st));
	line_reader_init(&r, f, name, "perf script output", PERF_SCRIPT_MAX_LINE,
			 PERF_SCRIPT_MAX_BYTES);
	while (!ret && (more = line_reader_next(&r)) > 0) {
		line = r.line;
		st->lines++;
		if (strlen(line) != r.len) {
			bad_line(st, line); /* an embedded NUL: binary garbage */
			continue;
		}
		line[strcspn(line, "\n")] = 0;
		if (!line[0]) {
			ret = flush(&c, fn, ctx, st);
		} else if (line[0] == '#') {
			ret = header_comment(line, hdr);
		} else if (isspace((unsigned char)line[0])) {
			char *p = line + strspn(line, " \t");

			bad_regs = false;
			if (!*p)
				ret = flush(&c, fn, ctx, st);
			else if (c.open && is_regs(p)) {
				if (parse_regs(&c, p) == -EINVAL)
					bad_line(st, line);
			} else if (indented_header(&c, p, fn, ctx, st, &bad_regs, &ret)) {
				if (bad_regs)
					bad_line(st, line);
			} else if (!c.open || (err = add_frame(&c, p)) == -EINVAL)
				bad_line(st, line);
			else if (err)
				ret = err;
		} else {
			if ((ret = flush(&c, fn, ctx, st)))
				break;
			c.s.pid = c.s.tid = c.s.cpu = -1;
			c.s.time = -1;
			bad_regs = false;
			err = parse_header(&c, line, &bad_regs);
			if (err == -EINVAL || bad_regs)
				bad_line(st, line);
			if (err != -EINVAL)
				ret = err;
		}
	}
	if (!ret && more < 0) {
		ret = more;
		said = true; /* by line_reader_next() */
	}
	if (!ret)
		ret = flush(&c, fn, ctx, st);
	sample_reset(&c);
	free(c.s.frames);
	line_reader_free(&r);
	if (ret < 0 && !said)
		p_err("reading %s: %s", name, strerror(-ret));
	return ret;
}

void perf_header_free(struct perf_header *h)
{
	free(h->hostname);
	free(h->os_release);
	free(h->cpu_desc);
	free(h->cmdline);
	free(h->cpuid);
	memset(h, 0, sizeof(*h));
}

const char *perf_script_reg_name(int reg)
{
	return reg >= 0 && reg < FLOW_NR_GPRS ? reg_names[reg] : "?";
}
