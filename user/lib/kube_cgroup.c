// SPDX-License-Identifier: GPL-2.0
/* kube_cgroup.c: a Kubernetes pod and container read from a cgroup path in the kubelet's layout */
#include <stdio.h>
#include <string.h>
#include "kube_cgroup.h"

/* One path component: [s, s + n). */
struct part {
	const char *s;
	size_t n;
};

static bool part_is(struct part p, const char *word)
{
	return p.n == strlen(word) && !memcmp(p.s, word, p.n);
}

static bool part_ends(struct part p, const char *suffix)
{
	size_t n = strlen(suffix);

	return p.n >= n && !memcmp(p.s + p.n - n, suffix, n);
}

/* The next component of *@rest, skipping slashes; false at the end. */
static bool next_part(const char **rest, struct part *p)
{
	const char *s = *rest;

	while (*s == '/')
		s++;
	if (!*s)
		return false;
	p->s = s;
	while (*s && *s != '/')
		s++;
	p->n = (size_t)(s - p->s);
	*rest = s;
	return true;
}

static const char *const qos_classes[] = { "burstable", "besteffort" };

/* "burstable" or "besteffort" at @s (exactly @n bytes); NULL if neither. */
static const char *qos_of(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(qos_classes) / sizeof(qos_classes[0]); i++)
		if (n == strlen(qos_classes[i]) && !memcmp(s, qos_classes[i], n))
			return qos_classes[i];
	return NULL;
}

/*
 * A uid of @n bytes at @s: 8-4-4-4-12 hex digits, the dashes written @dash (systemd escapes
 * them as '_'), into @out with dashes.
 */
static bool uid_parse(const char *s, size_t n, char dash_char, char *out)
{
	size_t i;

	if (n != KUBE_POD_UID_LEN)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i] == dash_char ? '-' : s[i] == '-' ? 0 : s[i];
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return false;
		out[i] = c;
	}
	out[n] = 0;
	return true;
}

static bool id_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A container id: 1 .. KUBE_CONTAINER_ID_MAX letters and digits. */
static bool container_id_parse(const char *s, size_t n, char *out)
{
	size_t i;

	if (!n || n > KUBE_CONTAINER_ID_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!id_char(s[i]))
			return false;
	memcpy(out, s, n);
	out[n] = 0;
	return true;
}

static const char *const runtimes[][2] = {
	{ "cri-containerd-", "containerd" },
	{ "crio-", "crio" },
	{ "docker-", "docker" },
};

/* A systemd container scope "<runtime>-<ID>.scope" (crio's conmon scopes are not containers). */
static bool scope_parse(struct part p, struct kube_cgroup *k)
{
	size_t i, pre;

	if (!part_ends(p, ".scope"))
		return false;
	p.n -= strlen(".scope");
	for (i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++) {
		pre = strlen(runtimes[i][0]);
		if (p.n > pre && !memcmp(p.s, runtimes[i][0], pre)) {
			snprintf(k->runtime, sizeof(k->runtime), "%s", runtimes[i][1]);
			return container_id_parse(p.s + pre, p.n - pre, k->container_id);
		}
	}
	return false;
}

/*
 * systemd: after @base (kubepods.slice, or kind's kubelet-kubepods.slice), with P its name less
 * ".slice": "[P-QOS.slice/]P[-QOS]-pod<UID>.slice[/scope]".
 */
static bool parse_systemd(const char *rest, struct part base, struct kube_cgroup *k)
{
	const char *qos = NULL;
	char prefix[256];
	struct part p;
	size_t n = base.n - strlen(".slice");

	if (n + 2 > sizeof(prefix))
		return false;
	memcpy(prefix, base.s, n);
	prefix[n] = '-';
	prefix[n + 1] = 0;

	if (!next_part(&rest, &p))
		return false;
	if (part_ends(p, ".slice") && p.n > strlen(prefix) + strlen(".slice") &&
	    !memcmp(p.s, prefix, strlen(prefix))) {
		qos = qos_of(p.s + strlen(prefix), p.n - strlen(prefix) - strlen(".slice"));
		if (qos && !next_part(&rest, &p))
			return false;
	}
	/* kubepods-pod<UID>.slice or kubepods-<QOS>-pod<UID>.slice */
	if (!part_ends(p, ".slice") || p.n < strlen(prefix) || memcmp(p.s, prefix, strlen(prefix)))
		return false;
	p.s += strlen(prefix);
	p.n -= strlen(prefix) + strlen(".slice");
	if (qos) {
		n = strlen(qos);
		if (p.n < n + 1 || memcmp(p.s, qos, n) || p.s[n] != '-')
			return false;
		p.s += n + 1;
		p.n -= n + 1;
	}
	if (p.n < 3 || memcmp(p.s, "pod", 3) || !uid_parse(p.s + 3, p.n - 3, '_', k->pod_uid))
		return false;
	snprintf(k->qos, sizeof(k->qos), "%s", qos ? qos : "guaranteed");
	if (!next_part(&rest, &p))
		return true;
	return scope_parse(p, k) && !next_part(&rest, &p);
}

/* cgroupfs: after kubepods, "[QOS/]pod<UID>[/<ID>]" */
static bool parse_cgroupfs(const char *rest, struct kube_cgroup *k)
{
	const char *qos = NULL;
	struct part p;

	if (!next_part(&rest, &p))
		return false;
	qos = qos_of(p.s, p.n);
	if (qos && !next_part(&rest, &p))
		return false;
	if (p.n < 3 || memcmp(p.s, "pod", 3) || !uid_parse(p.s + 3, p.n - 3, '-', k->pod_uid))
		return false;
	snprintf(k->qos, sizeof(k->qos), "%s", qos ? qos : "guaranteed");
	if (!next_part(&rest, &p))
		return true;
	return container_id_parse(p.s, p.n, k->container_id) && !next_part(&rest, &p);
}

bool kube_cgroup_parse(const char *path, struct kube_cgroup *k)
{
	const char *rest = path;
	struct part p;
	bool ok = false;

	memset(k, 0, sizeof(*k));
	while (!ok && next_part(&rest, &p)) {
		/* kind and some distributions nest the tree: kubelet-kubepods.slice */
		if (part_is(p, "kubepods.slice") || part_ends(p, "-kubepods.slice"))
			ok = parse_systemd(rest, p, k);
		else if (part_is(p, "kubepods"))
			ok = parse_cgroupfs(rest, k);
	}
	if (!ok)
		memset(k, 0, sizeof(*k));
	return ok;
}
