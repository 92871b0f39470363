// SPDX-License-Identifier: GPL-2.0
/* model_folder.c: estimate -m FOLDER: a folder of cost models, one per CPU model */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lib/log.h"
#include "model_folder.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int model_folder_list(const char *path, char **files, size_t max, size_t *nr)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	size_t n = 0;
	int err;

	*nr = 0;
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	d = opendir(path);
	if (!d) {
		err = -errno;
		p_err("-m %s: %s", path, strerror(errno));
		return err;
	}
	while ((e = readdir(d)) && n < max) {
		size_t l = strlen(e->d_name);

		if (l > 5 && !strcmp(e->d_name + l - 5, ".json") &&
		    asprintf(&files[n], "%s/%s", path, e->d_name) > 0)
			n++;
	}
	closedir(d);
	if (!n) {
		p_err("-m %s: no cost model (*.json) in that folder", path);
		return -ENOENT;
	}
	qsort(files, n, sizeof(char *), by_name);
	*nr = n;
	return 0;
}
