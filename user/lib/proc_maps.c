// SPDX-License-Identifier: GPL-2.0
/* proc_maps.c: a process's file mappings from /proc/PID/maps: an address to (file, offset) */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include "proc_maps.h"

uint32_t proc_maps_kdev(uint64_t st_dev)
{
	return (uint32_t)(major(st_dev) << 20 | minor(st_dev));
}

/* "start-end perms offset major:minor inode   path" */
static int parse_line(char *line, struct proc_map *m)
{
	unsigned int maj, min;
	int n = 0;
	char *path;

	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %x:%x %" SCNu64 " %n", &m->start,
		   &m->end, &m->pgoff, &maj, &min, &m->ino, &n) != 6 ||
	    !n)
		return -EINVAL;
	path = line + n;
	path[strcspn(path, "\n")] = '\0';
	/* Only files: anonymous memory, [heap], [vdso] ... name nothing an ELF reader opens. */
	if (!m->ino || path[0] != '/')
		return -ENOENT;
	m->dev = (uint32_t)(maj << 20 | min);
	m->path = strdup(path);
	return m->path ? 0 : -ENOMEM;
}

int proc_maps_read(uint32_t pid, struct proc_maps *out)
{
	char name[64], *line = NULL;
	size_t cap = 0, len = 0;
	struct proc_map m;
	FILE *f;
	int err = 0;

	*out = (struct proc_maps){ 0 };
	snprintf(name, sizeof(name), "/proc/%u/maps", pid);
	f = fopen(name, "re");
	if (!f)
		return -errno;
	while (getline(&line, &len, f) > 0) {
		memset(&m, 0, sizeof(m));
		err = parse_line(line, &m);
		if (err == -ENOENT || err == -EINVAL) {
			err = 0;
			continue;
		}
		if (err)
			break;
		if (out->nr == cap) {
			struct proc_map *n =
				realloc(out->maps, (cap = cap ? 2 * cap : 32) * sizeof(*n));

			if (!n) {
				free(m.path);
				err = -ENOMEM;
				break;
			}
			out->maps = n;
		}
		out->maps[out->nr++] = m;
	}
	free(line);
	fclose(f);
	if (err)
		proc_maps_free(out);
	return err;
}

const struct proc_map *proc_maps_find(const struct proc_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (addr < m->maps[mid].start)
			hi = mid;
		else if (addr >= m->maps[mid].end)
			lo = mid + 1;
		else
			return &m->maps[mid];
	}
	return NULL;
}

void proc_maps_free(struct proc_maps *m)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		free(m->maps[i].path);
	free(m->maps);
	*m = (struct proc_maps){ 0 };
}

/* One maps line's file, against the file looked for. */
static bool line_maps(const char *line, uint32_t kdev, uint64_t ino, const char *path)
{
	unsigned int maj, min;
	uint64_t i;
	size_t len = strlen(path);
	int n = 0;

	if (sscanf(line, "%*x-%*x %*s %*x %x:%x %" SCNu64 " %n", &maj, &min, &i, &n) != 3 || !n ||
	    i != ino)
		return false;
	if ((maj << 20 | min) == kdev)
		return true;
	line += n;
	return !strncmp(line, path, len) &&
	       (line[len] == '\n' || !strcmp(line + len, " (deleted)\n"));
}

static bool pid_maps(const char *pid, uint32_t kdev, uint64_t ino, const char *path)
{
	char name[300], *line = NULL;
	size_t len = 0;
	bool found = false;
	FILE *f;

	snprintf(name, sizeof(name), "/proc/%s/maps", pid);
	f = fopen(name, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &len, f) > 0)
		found = line_maps(line, kdev, ino, path);
	free(line);
	fclose(f);
	return found;
}

bool proc_maps_file_mapped(uint64_t st_dev, uint64_t ino, const char *path)
{
	uint32_t kdev = proc_maps_kdev(st_dev);
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool found = false;

	if (!d)
		return true; /* cannot tell: the caller keeps what it would drop */
	while (!found && (e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]))
			found = pid_maps(e->d_name, kdev, ino, path);
	closedir(d);
	return found;
}
