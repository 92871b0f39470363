/* SPDX-License-Identifier: GPL-2.0 */
/* model_folder.h: estimate -m FOLDER: a folder of cost models, one per CPU model */
#ifndef CP_MODEL_FOLDER_H
#define CP_MODEL_FOLDER_H

#include <stddef.h>

/*
 * If @path is a folder, fills @files (malloc'd, the caller frees each) with its *.json files,
 * sorted by name, at most @max, and sets *@nr; a path that is not a folder gives *@nr = 0.
 * 0, or -errno / -ENOENT (no *.json in the folder) once the reason is printed.
 */
int model_folder_list(const char *path, char **files, size_t max, size_t *nr);

#endif
