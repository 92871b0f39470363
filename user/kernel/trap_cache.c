// SPDX-License-Identifier: GPL-2.0
/* trap_cache.c: the per-boot trap cost file: its key, its one parser, its whole-or-nothing write */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <json-c/json.h>
#include "lib/fnv.h"
#include "lib/jsonr.h"
#include "lib/machine.h"
#include "trap_cache.h"

#define FORMAT_NAME "copyprof-trap-cost"
#define FORMAT_VERSION 1
#define VULN_DIR "/sys/devices/system/cpu/vulnerabilities"

const char *trap_cache_path(void)
{
	const char *env = getenv(TRAP_CACHE_ENV);

	if (!env)
		return TRAP_CACHE_DEFAULT;
	return env[0] ? env : NULL;
}

/* The first line of a small text file, without its newline; "" when unreadable. */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f && fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* Every mitigation state, "name=state" in name order, as one digest. */
static void mitigations_digest(char *buf, size_t len)
{
	struct dirent **names = NULL;
	uint64_t h = FNV1A64_INIT;
	int n = scandir(VULN_DIR, &names, NULL, alphasort), i;

	if (n < 0) {
		snprintf(buf, len, "none");
		return;
	}
	for (i = 0; i < n; i++) {
		char path[512], state[256];

		if (names[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", VULN_DIR, names[i]->d_name);
			read_line(path, state, sizeof(state));
			h = fnv1a64_str(h, names[i]->d_name);
			h = fnv1a64_str(h, "=");
			h = fnv1a64_str(h, state);
			h = fnv1a64_str(h, "\n");
		}
		free(names[i]);
	}
	free(names);
	snprintf(buf, len, "%016llx", (unsigned long long)h);
}

int trap_cache_key_here(const char *method, struct trap_cache_key *k)
{
	const struct machine *m = machine_this();
	struct utsname u;

	memset(k, 0, sizeof(*k));
	read_line("/proc/sys/kernel/random/boot_id", k->boot_id, sizeof(k->boot_id));
	if (!k->boot_id[0])
		return -ENOENT;
	if (!uname(&u))
		snprintf(k->kernel, sizeof(k->kernel), "%s %s", u.release, u.version);
	snprintf(k->cpu, sizeof(k->cpu), "%s %d/%d/%d %s, microcode %s", m->vendor_id, m->family,
		 m->model, m->stepping, m->model_name, m->microcode[0] ? m->microcode : "unknown");
	mitigations_digest(k->mitigations, sizeof(k->mitigations));
	snprintf(k->method, sizeof(k->method), "%s", method);
	return 0;
}

const struct trap_cache_entry *trap_cache_find(const struct trap_cache *c, const char *mech)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->v[i].mech, mech))
			return &c->v[i];
	return NULL;
}

int trap_cache_put(struct trap_cache *c, const struct trap_cache_entry *e)
{
	struct trap_cache_entry *old = (struct trap_cache_entry *)trap_cache_find(c, e->mech);

	if (!old && c->nr == TRAP_CACHE_MAX_ENTRIES)
		return -ENOSPC;
	if (!old)
		old = &c->v[c->nr++];
	*old = *e;
	return 0;
}

static const char *const key_names[] = { "boot_id", "kernel", "cpu", "mitigations", "method" };

static const char *key_field(const struct trap_cache_key *k, int i)
{
	const char *const v[] = { k->boot_id, k->kernel, k->cpu, k->mitigations, k->method };

	return v[i];
}

/* A mechanism's name: a short lower-case word. */
static bool mech_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n < sizeof(((struct trap_cache_entry *)0)->mech) &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz_") == n;
}

static int parse_entry(json_object *o, struct trap_cache_entry *e, char *why, size_t whylen)
{
	json_object *b;
	const char *mech;

	memset(e, 0, sizeof(*e));
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "mech", &b) ||
	    !json_object_is_type(b, json_type_string) ||
	    !mech_name_ok(mech = json_object_get_string(b))) {
		snprintf(why, whylen, "an entry without a mechanism's name");
		return -EINVAL;
	}
	snprintf(e->mech, sizeof(e->mech), "%s", mech);
	if (jsonr_num(o, "hit_ns", &e->hit_ns) || jsonr_num(o, "bpf_ns", &e->bpf_ns) ||
	    !(e->hit_ns >= 0 && e->hit_ns <= TRAP_CACHE_MAX_NS) ||
	    !(e->bpf_ns >= 0 && e->bpf_ns <= TRAP_CACHE_MAX_NS)) {
		snprintf(why, whylen, "%s: hit_ns and bpf_ns must be numbers from 0 to %.0f",
			 e->mech, TRAP_CACHE_MAX_NS);
		return -EINVAL;
	}
	if (!json_object_object_get_ex(o, "bpf_counted", &b) ||
	    !json_object_is_type(b, json_type_boolean) || jsonr_u64(o, "measured", &e->measured)) {
		snprintf(why, whylen, "%s: bpf_counted (a boolean) or measured (a time) missing",
			 e->mech);
		return -EINVAL;
	}
	e->bpf_counted = json_object_get_boolean(b);
	if (!e->bpf_counted && e->bpf_ns) {
		snprintf(why, whylen, "%s: a BPF time that was not counted", e->mech);
		return -EINVAL;
	}
	return 0;
}

static int parse_doc(json_object *doc, const struct trap_cache_key *k, struct trap_cache *c,
		     char *why, size_t whylen)
{
	json_object *v, *arr;
	uint64_t version = 0;
	size_t i, n;

	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "format", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), FORMAT_NAME) || jsonr_u64(doc, "version", &version)) {
		snprintf(why, whylen, "not a %s file", FORMAT_NAME);
		return -EINVAL;
	}
	if (version != FORMAT_VERSION) {
		snprintf(why, whylen, "version %llu, not %d", (unsigned long long)version,
			 FORMAT_VERSION);
		return -ESTALE;
	}
	for (i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++) {
		if (!json_object_object_get_ex(doc, key_names[i], &v) ||
		    !json_object_is_type(v, json_type_string)) {
			snprintf(why, whylen, "no %s", key_names[i]);
			return -EINVAL;
		}
		if (strcmp(json_object_get_string(v), key_field(k, (int)i))) {
			snprintf(why, whylen, "written under another %s", key_names[i]);
			return -ESTALE;
		}
	}
	if (!json_object_object_get_ex(doc, "mechanisms", &arr) ||
	    !json_object_is_type(arr, json_type_array) ||
	    (n = json_object_array_length(arr)) > TRAP_CACHE_MAX_ENTRIES) {
		snprintf(why, whylen, "mechanisms: not an array of at most %d entries",
			 TRAP_CACHE_MAX_ENTRIES);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		struct trap_cache_entry e;

		if (parse_entry(json_object_array_get_idx(arr, i), &e, why, whylen))
			return -EINVAL;
		if (trap_cache_find(c, e.mech)) {
			snprintf(why, whylen, "%s: listed twice", e.mech);
			return -EINVAL;
		}
		c->v[c->nr++] = e;
	}
	return 0;
}

int trap_cache_parse(const char *path, const struct trap_cache_key *k, struct trap_cache *c,
		     char *why, size_t whylen)
{
	json_object *doc = NULL;
	int err;

	memset(c, 0, sizeof(*c));
	err = jsonr_read_file(path, &doc, why, whylen);
	if (err)
		return err;
	err = parse_doc(doc, k, c, why, whylen);
	json_object_put(doc);
	if (err)
		memset(c, 0, sizeof(*c));
	return err;
}

int trap_cache_load(const char *path, const struct trap_cache_key *k, struct trap_cache *c,
		    char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), err;
	char fdpath[64];
	struct stat st;

	memset(c, 0, sizeof(*c));
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return errno == ENOENT ? -ENOENT : -EPERM;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022)) {
		snprintf(why, whylen, "not a regular file of this user's that only it can write");
		close(fd);
		return -EPERM;
	}
	if (st.st_size > TRAP_CACHE_MAX_BYTES) {
		snprintf(why, whylen, "larger than %d bytes", TRAP_CACHE_MAX_BYTES);
		close(fd);
		return -EFBIG;
	}
	/* The file opened and checked, not whatever the name points at by now. */
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	err = trap_cache_parse(fdpath, k, c, why, whylen);
	close(fd);
	return err;
}

static json_object *to_json(const struct trap_cache_key *k, const struct trap_cache *c)
{
	json_object *doc = json_object_new_object(), *arr = json_object_new_array();
	size_t i;

	json_object_object_add(doc, "format", json_object_new_string(FORMAT_NAME));
	json_object_object_add(doc, "version", json_object_new_int(FORMAT_VERSION));
	for (i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		json_object_object_add(doc, key_names[i],
				       json_object_new_string(key_field(k, (int)i)));
	for (i = 0; i < c->nr; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "mech", json_object_new_string(c->v[i].mech));
		json_object_object_add(e, "hit_ns", json_object_new_double(c->v[i].hit_ns));
		json_object_object_add(e, "bpf_ns", json_object_new_double(c->v[i].bpf_ns));
		json_object_object_add(e, "bpf_counted",
				       json_object_new_boolean(c->v[i].bpf_counted));
		json_object_object_add(e, "measured",
				       json_object_new_int64((int64_t)c->v[i].measured));
		json_object_array_add(arr, e);
	}
	json_object_object_add(doc, "mechanisms", arr);
	return doc;
}

/* @dir exists (made 0755 if missing), is a folder, is ours and no one else can write it. */
static int check_dir(const char *dir, char *why, size_t whylen)
{
	struct stat st;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(why, whylen, "cannot make %s: %s", dir, strerror(errno));
		return -errno;
	}
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022)) {
		snprintf(why, whylen, "%s is not a folder of this user's that only it can write",
			 dir);
		return -EPERM;
	}
	return 0;
}

int trap_cache_store(const char *path, const struct trap_cache_key *k, const struct trap_cache *c,
		     char *why, size_t whylen)
{
	char dir[4096], tmp[4200], *slash;
	json_object *doc;
	const char *text;
	struct stat st;
	ssize_t len;
	int fd, err = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	err = check_dir(dir, why, whylen);
	if (err)
		return err;
	if (!lstat(path, &st) && (!S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
		snprintf(why, whylen, "%s is not a regular file of this user's: left alone", path);
		return -EPERM;
	}
	snprintf(tmp, sizeof(tmp), "%s/.trap-cost.XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(why, whylen, "cannot make a temp file in %s: %s", dir, strerror(errno));
		return -errno;
	}
	doc = to_json(k, c);
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY);
	len = (ssize_t)strlen(text);
	if (fchmod(fd, 0644) || write(fd, text, (size_t)len) != len || write(fd, "\n", 1) != 1 ||
	    fsync(fd))
		err = -(errno ? errno : EIO);
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		snprintf(why, whylen, "cannot write %s: %s", path, strerror(-err));
		unlink(tmp);
	}
	json_object_put(doc);
	return err;
}
