/* SPDX-License-Identifier: GPL-2.0 */
/* reason.h: the "char **why" out-parameter: a heap string saying why a lookup failed */
#ifndef CP_REASON_H
#define CP_REASON_H

/* Sets *@why to the formatted reason (NULL if out of memory) and returns @err. */
int reason_fail(char **why, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Appends "; " and the formatted reason to *@why (sets it if NULL); out of memory: unchanged. */
void reason_add(char **why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
