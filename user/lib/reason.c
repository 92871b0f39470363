// SPDX-License-Identifier: GPL-2.0
/* reason.c: the "char **why" out-parameter (see reason.h) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "reason.h"

int reason_fail(char **why, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(why, fmt, ap) < 0)
		*why = NULL;
	va_end(ap);
	return err;
}

void reason_add(char **why, const char *fmt, ...)
{
	char *msg, *joined;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (!*why) {
		*why = msg;
		return;
	}
	if (asprintf(&joined, "%s; %s", *why, msg) >= 0) {
		free(*why);
		*why = joined;
	}
	free(msg);
}
