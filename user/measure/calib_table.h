/* SPDX-License-Identifier: GPL-2.0 */
/* calib_table.h: the seed patch's tables (short copies; 4 KiB by cache state) from a cost model */
#ifndef CP_CALIB_TABLE_H
#define CP_CALIB_TABLE_H

#include <stdio.h>
#include "costmodel/costmodel.h"

/*
 * Prints, in the layout of the seed patch:
 *   bytes  orig  REP MOVSB  increase       memcpy_orig vs movsb, warm, at 32/64/128/256 bytes
 *   warmed / source flushed / destination flushed: orig, patched, reduction
 *                                          memcpy_orig vs erms_threshold at 4096 bytes
 * and the warm crossover of memcpy_orig and movsb. Missing figures print as "n/a".
 * Returns the number of table cells that had no figure (0 when everything was there).
 */
int calib_table_print(FILE *f, const struct costmodel *m);

#endif
