// SPDX-License-Identifier: GPL-2.0
/* reason.c: the "char **why" out-parameter (see reason.h) */
#include <stdarg.h>
#include <stdio.h>
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
