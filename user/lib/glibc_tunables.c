// SPDX-License-Identifier: GPL-2.0
/* glibc_tunables.c: the strict parser of `ld.so --list-tunables`, and running it */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gelf.h>
#include "env_copy.h"
#include "glibc_tunables.h"
#include "monotime.h"
#include "reason.h"

#define LIST_MAX (1 << 20) /* glibc 2.36 prints about 2.5 KB */
#define LDSO_DEADLINE_S 10.0

static const struct {
	const char *name;
	size_t offset;
} kept[] = {
	{ "glibc.cpu.x86_rep_movsb_threshold",
	  offsetof(struct glibc_tunables, rep_movsb_threshold) },
	{ "glibc.cpu.x86_rep_stosb_threshold",
	  offsetof(struct glibc_tunables, rep_stosb_threshold) },
	{ "glibc.cpu.x86_rep_movsb_stop_threshold",
	  offsetof(struct glibc_tunables, rep_movsb_stop_threshold) },
	{ "glibc.cpu.x86_non_temporal_threshold",
	  offsetof(struct glibc_tunables, non_temporal_threshold) },
	{ "glibc.cpu.x86_shared_cache_size", offsetof(struct glibc_tunables, shared_cache_size) },
	{ "glibc.cpu.x86_data_cache_size", offsetof(struct glibc_tunables, data_cache_size) },
};

/* A decimal or 0x-hex number of 64 bits at *@p, which moves past it. */
static bool number(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	bool hex = end - s > 2 && s[0] == '0' && s[1] == 'x';
	unsigned int base = hex ? 16 : 10, digit;
	uint64_t x = 0;
	size_t n = 0;

	if (hex)
		s += 2;
	for (; s < end; s++, n++) {
		if (*s >= '0' && *s <= '9')
			digit = (unsigned int)(*s - '0');
		else if (hex && *s >= 'a' && *s <= 'f')
			digit = (unsigned int)(*s - 'a' + 10);
		else
			break;
		if (x > (UINT64_MAX - digit) / base)
			return false; /* does not fit 64 bits */
		x = x * base + digit;
	}
	if (!n)
		return false;
	*v = x;
	*p = s;
	return true;
}

static bool literal(const char **p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *p) < n || memcmp(*p, lit, n))
		return false;
	*p += n;
	return true;
}

/* glibc.NAMESPACE.TUNABLE: three or more dot-separated parts of [A-Za-z0-9_]. */
static bool valid_name(const char *s, size_t n)
{
	size_t i, parts = 1;

	if (n < 7 || memcmp(s, "glibc.", 6) || s[n - 1] == '.')
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == '.') {
			if (i && s[i - 1] == '.')
				return false;
			parts++;
		} else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9') || c == '_')) {
			return false;
		}
	}
	return parts >= 3;
}

struct seen {
	char **names;
	size_t nr, cap;
};

static int remember(struct seen *s, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (strlen(s->names[i]) == n && !memcmp(s->names[i], name, n))
			return -EEXIST;
	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		char **v = realloc(s->names, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->names = v;
		s->cap = cap;
	}
	s->names[s->nr] = strndup(name, n);
	return s->names[s->nr++] ? 0 : -ENOMEM;
}

static void forget(struct seen *s)
{
	while (s->nr)
		free(s->names[--s->nr]);
	free(s->names);
}

/* One line (without its newline). */
static int parse_line(const char *p, const char *end, size_t lineno, struct glibc_tunables *out,
		      struct seen *seen, char **why)
{
	const char *colon = memchr(p, ':', (size_t)(end - p)), *name = p;
	struct glibc_tunable t = { .present = true };
	size_t n, i;
	int err;

	if (!colon || !valid_name(p, (size_t)(colon - p)))
		return reason_fail(why, -EINVAL, "line %zu: not 'glibc.NAMESPACE.TUNABLE: ...'",
				   lineno);
	n = (size_t)(colon - p);
	err = remember(seen, name, n);
	if (err)
		return reason_fail(why, err == -EEXIST ? -EINVAL : err, "line %zu: %.*s %s", lineno,
				   (int)n, name,
				   err == -EEXIST ? "is listed twice" : "cannot be stored");
	p = colon + 1;
	if (p < end && literal(&p, end, " ") && number(&p, end, &t.value) && p < end) {
		if (!literal(&p, end, " (min: ") || !number(&p, end, &t.min) ||
		    !literal(&p, end, ", max: ") || !number(&p, end, &t.max) ||
		    !literal(&p, end, ")") || p != end)
			return reason_fail(why, -EINVAL,
					   "line %zu: %.*s: not 'VALUE (min: MIN, max: MAX)'",
					   lineno, (int)n, name);
		if (t.min > t.max)
			return reason_fail(why, -EINVAL, "line %zu: %.*s: min above max", lineno,
					   (int)n, name);
	} else {
		/* A string tunable ("glibc.cpu.hwcaps:" or "NAME: TEXT"): no number, no "(". */
		if (memchr(colon, '(', (size_t)(end - colon)))
			return reason_fail(why, -EINVAL,
					   "line %zu: %.*s: a value that is no number", lineno,
					   (int)n, name);
		t.present = false;
	}
	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		if (strlen(kept[i].name) != n || memcmp(kept[i].name, name, n))
			continue;
		if (!t.present)
			return reason_fail(why, -EINVAL, "line %zu: %s has no numeric value",
					   lineno, kept[i].name);
		*(struct glibc_tunable *)((char *)out + kept[i].offset) = t;
	}
	out->nr_lines++;
	return 0;
}

int glibc_tunables_parse(const char *text, size_t len, struct glibc_tunables *out, char **why)
{
	const char *p = text, *end = text + len;
	struct seen seen = { 0 };
	size_t lineno = 0;
	int err = 0;

	*out = (struct glibc_tunables){ .nr_lines = 0 };
	*why = NULL;
	if (memchr(text, 0, len))
		return reason_fail(why, -EINVAL, "a NUL byte in the list");
	while (!err && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ?: end;

		lineno++;
		if (eol == p)
			err = reason_fail(why, -EINVAL, "line %zu is empty", lineno);
		else
			err = parse_line(p, eol, lineno, out, &seen, why);
		p = nl ? nl + 1 : end;
	}
	forget(&seen);
	if (!err && !out->nr_lines)
		err = reason_fail(why, -EINVAL, "no tunables listed");
	if (err)
		*out = (struct glibc_tunables){ .nr_lines = 0 };
	return err;
}

/* The environment without GLIBC_TUNABLES, then with @tunables when given. */
static char **loader_environment(const char *tunables, char **var)
{
	size_t j;
	char **env = env_copy("GLIBC_TUNABLES", 1, &j);

	if (!env)
		return NULL;
	*var = NULL;
	if (tunables && asprintf(var, "GLIBC_TUNABLES=%s", tunables) >= 0)
		env[j++] = *var;
	return env;
}

/* Reads @fd into @buf until EOF, LIST_MAX or the deadline; the length, or -errno. */
static ssize_t read_all(int fd, char *buf, double deadline)
{
	size_t len = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = deadline - monotime_s();
		ssize_t n;

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!p.revents)
			continue;
		n = read(fd, buf + len, LIST_MAX - len);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n == 0)
			return (ssize_t)len;
		if (n > 0 && (len += (size_t)n) == LIST_MAX)
			return -EFBIG;
	}
}

int glibc_tunables_read(const char *ldso, const char *tunables, struct glibc_tunables *out,
			char **why)
{
	char *argv[] = { (char *)(ldso ?: GLIBC_TUNABLES_DEFAULT_LDSO), "--list-tunables", NULL };
	char *buf = malloc(LIST_MAX), **env = NULL, *var = NULL;
	posix_spawn_file_actions_t fa;
	int fds[2] = { -1, -1 }, status = 0, err;
	ssize_t len = 0;
	pid_t pid = -1;

	*why = NULL;
	*out = (struct glibc_tunables){ .nr_lines = 0 };
	env = buf ? loader_environment(tunables, &var) : NULL;
	if (!env || pipe2(fds, O_CLOEXEC)) {
		err = reason_fail(why, -ENOMEM, "cannot run %s: %s", argv[0], strerror(errno));
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	err = -posix_spawn(&pid, argv[0], &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (err) {
		pid = -1;
		reason_fail(why, err, "cannot run %s: %s", argv[0], strerror(-err));
		goto out;
	}
	len = read_all(fds[0], buf, monotime_s() + LDSO_DEADLINE_S);
	if (len < 0)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (len < 0)
		err = reason_fail(why, (int)len, "%s --list-tunables: %s", argv[0],
				  len == -ETIMEDOUT ? "no end of output within 10 s"
						    : strerror((int)-len));
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		err = reason_fail(
			why, -EINVAL,
			"%s --list-tunables failed (status %d): not a glibc 2.33+ loader?", argv[0],
			WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	else if ((err = glibc_tunables_parse(buf, (size_t)len, out, why))) {
		char *inner = *why;

		*why = NULL;
		reason_fail(why, err, "%s --list-tunables: %s", argv[0], inner ?: "unreadable");
		free(inner);
	}
out:
	if (fds[0] >= 0)
		close(fds[0]);
	free(buf);
	free(env);
	free(var);
	return err;
}

char *glibc_tunables_ldso_of(const char *path, char **why)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t i, n, size;
	char *found = NULL;
	const char *raw;
	Elf *elf;

	*why = NULL;
	if (fd < 0) {
		reason_fail(why, -errno, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	raw = elf ? elf_rawfile(elf, &size) : NULL;
	if (raw && !elf_getphdrnum(elf, &n))
		for (i = 0; i < n && !found; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_INTERP ||
			    ph.p_offset > size || ph.p_filesz > size - ph.p_offset || !ph.p_filesz)
				continue;
			found = strndup(raw + ph.p_offset, ph.p_filesz);
		}
	if (!found)
		reason_fail(why, -ENOENT, "%s names no dynamic loader (static, or not ELF)", path);
	elf_end(elf);
	close(fd);
	return found;
}
