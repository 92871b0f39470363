// SPDX-License-Identifier: GPL-2.0
/* import_perf.c: perf record -g samples, through perf script, charged to copy-family sites */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "kernel/ksyms.h"
#include "kernel/ktext.h"
#include "lib/counter_map.h"
#include "lib/line_reader.h"
#include "lib/log.h"
#include "lib/machine.h"
#include "lib/reason.h"
#include "sites/copy_family.h"
#include "sites/len_rules.h"
#include "import_perf.h"
#include "perf_script.h"
#include "profile/profile.h"
#include "profile/sample_agg.h"

struct perf_importer {
	struct sample_agg *agg;
	struct ksyms *ks; /* this machine's, to recognise inline copies; NULL: off */
	struct ktext *kt;
	struct len_rules *lr; /* rules from kt, shared with record --sample */
	bool text_tried;
	struct counter_map reps; /* "ip" -> 1 + (width << 1 | movs), or 1 for none */
	struct sample_frame *frames;
	size_t cap;
	uint64_t total, idle, other_kernel;
	struct import_perf_lengths len;
	double t_first, t_last;
	char *event;
	int err;
};

/* Was the kernel leaf @f recorded on this machine's kernel (perf's symbol agrees)? */
static bool this_kernel(struct perf_importer *im, const struct perf_frame *f)
{
	uint64_t off, size;
	const struct ksym *s;

	if (!im->ks || !f->kernel || !f->sym)
		return false;
	s = ksyms_at(im->ks, f->ip, &off, &size);
	if (s && off == f->off) {
		const struct ksym *names[16];
		size_t n = ksyms_aliases(im->ks, s, names, 16), i;

		/* perf may name another alias of the address (__pi_memset for memset). */
		for (i = 0; i < n; i++)
			if (!strcmp(names[i]->name, f->sym))
				return true;
	}
	im->other_kernel++; /* recorded on another kernel or boot */
	return false;
}

/* This machine's kernel text and its length rules, opened on first use; NULL without. */
static struct ktext *kernel_text(struct perf_importer *im)
{
	if (!im->text_tried) {
		im->text_tried = true;
		im->kt = ktext_open(im->ks, geteuid() == 0);
		p_debug("kernel text for inline copies and lengths: %s",
			im->kt ? ktext_source(im->kt) : "none");
		if (im->kt && !(im->lr = len_rules_new(ktext_provider(im->kt))))
			im->err = -ENOMEM;
	}
	return im->kt;
}

/* The instruction at a kernel leaf of this kernel: a rep movs/stos's width, or 0. */
static int rep_at(struct perf_importer *im, const struct perf_frame *f, bool *movs)
{
	struct counter_map_ent *e;
	uint8_t insn[16];
	char key[24];
	int width = 0;

	snprintf(key, sizeof(key), "%llx", (unsigned long long)f->ip);
	e = counter_map_get(&im->reps, key);
	if (e && e->value)
		goto done;
	if (kernel_text(im) && !ktext_read(im->kt, f->ip, insn, sizeof(insn)) &&
	    flow_is_rep_string(insn, sizeof(insn), f->ip, &width, movs))
		width = width << 1 | *movs;
	else
		width = 0;
	if (!e)
		return 0;
	e->value = 1 + (uint64_t)width;
done:
	*movs = (e->value - 1) & 1;
	return (int)((e->value - 1) >> 1);
}

/*
 * The sample's length, by the rules record --sample uses (len_rules.h), from its interrupt
 * registers and this machine's kernel text; counts why it stays unknown.
 */
static int sample_len(struct perf_importer *im, const struct perf_sample *s,
		      const struct sample_attr *at, bool here, uint64_t *len)
{
	struct import_perf_lengths *l = &im->len;
	uint16_t missing;
	int q, rule;

	*len = 0;
	if (s->regs_abi < 0 || !s->regs_have) { /* none printed, or "ABI:0": none recorded */
		l->no_regs++;
		return LEN_UNKNOWN;
	}
	if (!here || !kernel_text(im) || !im->lr) {
		l->no_text++;
		return LEN_UNKNOWN;
	}
	q = len_rules_recover(im->lr, at->conv, s->frames[0].ip, s->nr > 1 ? s->frames[1].ip : 0,
			      s->regs, s->regs_have, len, &rule, &missing);
	if (missing) {
		l->missing_samples++;
		l->missing |= missing;
	}
	l->quality[q]++;
	return q;
}

static int on_sample(void *ctx, const struct perf_sample *s)
{
	struct perf_importer *im = ctx;
	struct sample_task task;
	struct sample_attr at;
	bool movs = false, here;
	int width = 0, q;
	uint64_t len;
	size_t i;

	im->total++;
	if (s->pid == 0)
		im->idle++;
	if (s->time >= 0) {
		if (im->total == 1 || s->time < im->t_first)
			im->t_first = s->time;
		if (s->time > im->t_last)
			im->t_last = s->time;
	}
	if (!im->event && s->event)
		im->event = strdup(s->event);
	if (!s->nr)
		return 0;
	if (s->nr > im->cap) {
		struct sample_frame *n = realloc(im->frames, s->nr * sizeof(*n));

		if (!n)
			return -ENOMEM;
		im->frames = n;
		im->cap = s->nr;
	}
	for (i = 0; i < s->nr; i++)
		im->frames[i] =
			(struct sample_frame){ s->frames[i].sym, s->frames[i].off, s->frames[i].dso,
					       s->frames[i].inlined, !s->frames[i].kernel };
	here = this_kernel(im, &s->frames[0]);
	if (!sample_attribute(im->frames, s->nr, 0, false, &at)) {
		width = here ? rep_at(im, &s->frames[0], &movs) : 0;
		if (!width || !sample_attribute(im->frames, s->nr, width, movs, &at))
			return im->err;
	}
	q = sample_len(im, s, &at, here, &len);
	/* perf's pid is the process (tgid), as record --sample keeps it; else its tid. */
	task = (struct sample_task){ .pid = (uint32_t)(s->pid >= 0 ? s->pid : s->tid),
				     .comm = s->comm };
	return im->err
		       ?: sample_agg_add(im->agg, &at, im->frames, s->nr,
					 s->comm && (s->pid >= 0 || s->tid >= 0) ? &task : NULL, q,
					 len, 1);
}

static bool perf_in_path(void)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save, buf[4096];
	bool found = false;

	if (!path || !(copy = strdup(path)))
		return false;
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, sizeof(buf), "%s/perf", *dir ? dir : ".");
		found = !access(buf, X_OK);
	}
	free(copy);
	return found;
}

/* Starts perf with @argv; its stdout is returned, its stderr goes to @err_fd. */
static FILE *spawn_perf(char *const argv[], int err_fd, pid_t *pid)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) || (*pid = fork()) < 0) {
		p_err("cannot start perf: %s", strerror(errno));
		return NULL;
	}
	if (!*pid) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(err_fd, STDERR_FILENO);
		execvp("perf", argv);
		_exit(127);
	}
	close(fds[1]);
	return fdopen(fds[0], "r");
}

/* Is @flag ("CPU") in every event's "sample_type: IP|TID|TIME|..." of perf evlist -v? */
static bool all_have(char *const *types, size_t n, const char *flag)
{
	size_t i, len = strlen(flag);

	for (i = 0; i < n; i++) {
		const char *p = types[i];
		bool found = false;

		while (!found && *p) {
			size_t l = strcspn(p, "|");

			found = l == len && !strncmp(p, flag, len);
			p += l + (p[l] == '|');
		}
		if (!found)
			return false;
	}
	return true;
}

/*
 * The -F fields to ask perf script for: PERF_SCRIPT_FIELDS less those the file's events do not
 * record (plain `perf record -g -- CMD` has no CPU; perf script refuses a field it lacks), and
 * iregs when every sampling event recorded interrupt registers (perf record --intr-regs; the
 * dummy event perf adds never does). The full list without iregs if perf evlist cannot tell.
 */
static void perf_fields(const char *input, char *out, size_t len, bool *iregs)
{
	char *argv[] = { "perf", "evlist", "-v", "-i", (char *)input, NULL };
	char *line, *types[64];
	size_t n = 0, regs = 0, sampling = 0;
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC), status;
	struct line_reader r;
	pid_t pid;
	FILE *f;

	*iregs = false;
	snprintf(out, len, "%s", PERF_SCRIPT_FIELDS);
	f = devnull >= 0 ? spawn_perf(argv, devnull, &pid) : NULL;
	/* One line per event: a few hundred bytes each. */
	line_reader_init(&r, f, "perf evlist -v", "perf's list of events", 65536, 64UL << 20);
	while (f && line_reader_next(&r) > 0) {
		const char *t = strstr(line = r.line, "sample_type: ");

		if (!t || n >= sizeof(types) / sizeof(*types))
			continue;
		if (!(types[n] = strndup(t + 13, strcspn(t + 13, ", \n"))))
			continue;
		if (strncmp(line, "dummy:", 6)) {
			sampling++;
			regs += all_have(&types[n], 1, "REGS_INTR");
		}
		n++;
	}
	if (f) {
		fclose(f);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (n && WIFEXITED(status) && !WEXITSTATUS(status)) {
			*iregs = sampling && regs == sampling;
			snprintf(out, len, "comm%s%s,event%s,ip,sym,symoff,dso%s",
				 all_have(types, n, "TID") ? ",pid,tid" : "",
				 all_have(types, n, "CPU") ? ",cpu" : "",
				 all_have(types, n, "TIME") ? ",time" : "", *iregs ? ",iregs" : "");
		}
	}
	while (n)
		free(types[--n]);
	line_reader_free(&r);
	if (devnull >= 0)
		close(devnull);
}

/* Starts `perf script` on @input; its stdout is returned, its stderr goes to @err_fd. */
static FILE *run_perf(const char *input, int err_fd, pid_t *pid, bool *iregs)
{
	char fields[160];
	char *argv[] = { "perf", "script", "--header", "-F", fields, "-i", (char *)input, NULL };

	if (!perf_in_path()) {
		p_err("perf is not installed or not in PATH: install it (Debian: linux-perf), or "
		      "run 'perf script -F %s' where it is and give the text with --script",
		      PERF_SCRIPT_FIELDS);
		return NULL;
	}
	if (access(input, R_OK)) {
		p_err("cannot read %s: %s", input, strerror(errno));
		return NULL;
	}
	perf_fields(input, fields, sizeof(fields), iregs);
	p_debug("perf script -F %s -i %s", fields, input);
	return spawn_perf(argv, err_fd, pid);
}

/* perf's exit status and the first lines of what it said, in one message. */
static int perf_status(pid_t pid, FILE *errf, const char *input)
{
	char msg[512] = "", *p;
	size_t n;
	int status;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	rewind(errf);
	n = fread(msg, 1, sizeof(msg) - 1, errf);
	msg[n] = 0;
	for (p = msg; *p; p++)
		if (*p == '\n')
			*p = p[1] ? ' ' : 0;
	if (WIFEXITED(status))
		p_err("perf script -i %s failed (exit %d): %s", input, WEXITSTATUS(status),
		      *msg ? msg : "no message");
	else
		p_err("perf script -i %s was killed by signal %d", input, WTERMSIG(status));
	return -EIO;
}

/* Why copy samples have no length, and what to do; NULL when none lacks one for a reason. */
static char *lengths_note(const struct import_perf_lengths *l, uint64_t copy)
{
	char *note = NULL, regs[96] = "";
	int i;

	if (l->no_regs == copy && copy)
		reason_add(&note,
			   "lengths unknown: the perf data has no interrupt registers; record with "
			   "perf record -g --intr-regs=" PERF_SCRIPT_IREGS
			   " and import the perf.data (or perf script -F " PERF_SCRIPT_FIELDS
			   ",iregs)");
	else if (l->no_regs)
		reason_add(&note,
			   "%llu copy sample(s) without interrupt registers have no length (perf "
			   "record --intr-regs=" PERF_SCRIPT_IREGS " records them)",
			   (unsigned long long)l->no_regs);
	for (i = 0; i < FLOW_NR_GPRS; i++)
		if (l->missing & (1u << i))
			snprintf(regs + strlen(regs), sizeof(regs) - strlen(regs), "%s%s",
				 *regs ? "," : "", perf_script_reg_name(i));
	if (l->missing_samples)
		reason_add(
			&note,
			"%llu copy sample(s) have no length: their rule reads %s, which the data "
			"lacks; record with perf record -g --intr-regs=" PERF_SCRIPT_IREGS,
			(unsigned long long)l->missing_samples, regs);
	if (l->no_text)
		reason_add(&note,
			   "%llu copy sample(s) have registers but no length: the rules read the "
			   "kernel code they ran, and this machine's is not it (another kernel or "
			   "boot) or was not read (--no-kernel-text, no root); import where they "
			   "were recorded",
			   (unsigned long long)l->no_text);
	return note;
}

/*
 * The recording machine from perf's header: vendor, family, model and stepping from its cpuid.
 * perf records no CPU flags: they are this machine's only where the header's hostname and cpuid
 * are this machine's, else unknown (never "no flags": that would pick memcpy_orig on an FSRM
 * CPU).
 */
static void fill_machine(struct host_meta *meta, const struct perf_header *h)
{
	const struct machine *here = machine_this();
	struct machine mc = { .family = -1, .model = -1, .stepping = -1, .caches.cpu = -1 };
	struct utsname u;
	bool same;

	if (h->cpuid && machine_from_perf_cpuid(h->cpuid, &mc))
		p_warn("perf.data's cpuid '%s' is not vendor,family,model,stepping: the machine "
		       "is unknown",
		       h->cpuid);
	same = h->hostname && !uname(&u) && !strcmp(h->hostname, u.nodename) &&
	       machine_same_cpu(&mc, here);
	if (same) {
		mc = *here; /* its flags, caches and TSC too */
		mc.model_name[0] = 0;
		meta->cpu_flags_from = strdup("this machine (same host and cpuid as perf.data)");
	} else {
		meta->cpu_flags_unknown = true;
		if (asprintf(&meta->cpu_flags_from,
			     "unknown: perf.data records none, and its host %s, cpuid %s are not "
			     "this machine's",
			     h->hostname ?: "(not recorded)", h->cpuid ?: "(not recorded)") < 0)
			meta->cpu_flags_from = NULL;
	}
	if (h->cpu_desc)
		snprintf(mc.model_name, sizeof(mc.model_name), "%s", h->cpu_desc);
	host_set_machine(meta, &mc);
}

static void fill_meta(struct profile *p, struct perf_importer *im, const struct perf_header *h,
		      const struct perf_script_stats *st)
{
	struct sample_meta *m = calloc(1, sizeof(*m));

	p->meta.tool_version = strdup(COPYPROF_VERSION);
	p->meta.kernel = h->os_release ? strdup(h->os_release) : NULL;
	p->meta.cpu_model = h->cpu_desc ? strdup(h->cpu_desc) : NULL;
	p->meta.hostname = h->hostname ? strdup(h->hostname) : NULL;
	fill_machine(&p->meta, h);
	p->meta.command = h->cmdline ? strdup(h->cmdline) : NULL;
	p->meta.duration_s = im->t_last > im->t_first ? im->t_last - im->t_first : 0;
	if (!m)
		return;
	m->event = im->event;
	im->event = NULL;
	m->total = im->total;
	m->idle = im->idle;
	m->malformed = st->malformed;
	m->lengths_note = lengths_note(&im->len, sample_agg_samples(im->agg));
	p->sample = m;
}

static int import(const struct import_perf_args *a, struct perf_importer *im, struct profile *p)
{
	struct perf_script_stats st;
	struct perf_header hdr = { 0 };
	const char *name = a->script ?: a->input;
	FILE *in, *errf = NULL;
	pid_t pid = -1;
	int err;

	if (a->script) {
		in = strcmp(a->script, "-") ? fopen(a->script, "r") : stdin;
		if (!in) {
			p_err("cannot read %s: %s", a->script, strerror(errno));
			return -errno;
		}
	} else {
		errf = tmpfile();
		if (!errf || !(in = run_perf(a->input, fileno(errf), &pid, &im->len.iregs_asked))) {
			if (errf)
				fclose(errf);
			return -ENOENT;
		}
	}
	err = perf_script_parse(in, name, on_sample, im, &hdr, &st);
	/* Refused part way (said why): perf, still writing, is stopped and its end not told. */
	if (pid > 0 && err)
		kill(pid, SIGTERM);
	if (in != stdin)
		fclose(in);
	if (pid > 0 && err)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	else if (pid > 0 && perf_status(pid, errf, a->input))
		err = -EIO;
	if (errf)
		fclose(errf);
	if (!err && st.malformed)
		p_warn("%s: %llu malformed line(s) skipped (first, line %llu: '%s')", name,
		       (unsigned long long)st.malformed, (unsigned long long)st.first_bad_line,
		       st.first_bad);
	if (!err && !st.samples) {
		p_err("%s: no perf samples found (%llu lines read); expected perf script output "
		      "with the fields %s",
		      name, (unsigned long long)st.lines, PERF_SCRIPT_FIELDS);
		err = -EINVAL;
	}
	if (!err) {
		fill_meta(p, im, &hdr, &st);
		err = sample_agg_to_profile(im->agg, p);
	}
	perf_header_free(&hdr);
	return err;
}

int import_perf_run(const struct import_perf_args *a, struct profile *p,
		    struct import_perf_stats *st)
{
	struct perf_importer im = { 0 };
	int err = -ENOMEM;

	im.agg = sample_agg_new();
	if (!im.agg)
		goto out;
	/* kallsyms are optional here: without them inline copies are not recognised. */
	if (!a->no_text && !access("/proc/kallsyms", R_OK)) {
		im.ks = ksyms_load(NULL);
		if (im.ks && im.ks->restricted) {
			len_rules_free(im.lr);
			ksyms_free(im.ks);
			im.ks = NULL;
		}
	}
	err = import(a, &im, p);
	if (err)
		goto out;
	st->total = im.total;
	st->copy = sample_agg_samples(im.agg);
	st->other_kernel = im.other_kernel;
	st->len = im.len;
out:
	sample_agg_free(im.agg);
	counter_map_free(&im.reps);
	ktext_close(im.kt);
	len_rules_free(im.lr);
	ksyms_free(im.ks);
	free(im.frames);
	free(im.event);
	return err;
}
