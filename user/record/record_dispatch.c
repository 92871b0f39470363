// SPDX-License-Identifier: GPL-2.0
/* record_dispatch.c: the running kernel's copy dispatch into a kernel recording's meta */
#include <stdlib.h>
#include <sys/utsname.h>
#include "kernel/kimage.h"
#include "kernel/ksyms.h"
#include "lib/log.h"
#include "sites/dispatch.h"
#include "record_dispatch.h"

void record_dispatch_fill(struct profile *p)
{
	struct kimage_opts ko = { .live_only = true };
	struct dispatch d = { 0 };
	struct kimage *ki;
	struct ksyms *ks;
	struct utsname u;
	char *why = NULL;

	if (p->dispatch || uname(&u))
		return;
	ks = ksyms_load(NULL);
	if (!ks)
		return;
	ko.release = u.release;
	ki = kimage_open(&ko, ks, &why);
	if (!ki)
		p_debug("dispatch from the table: no live kernel text (%s)", why ?: "?");
	free(why);
	dispatch_probe(ks, ki, u.release, &p->meta, &d);
	p->dispatch = profile_dispatch_from(&d);
	dispatch_free(&d);
	kimage_close(ki);
	ksyms_free(ks);
}
