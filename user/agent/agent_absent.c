// SPDX-License-Identifier: GPL-2.0
/* agent_absent.c: `copyprof agent` in the static build, which has no HTTP server to link */
#include "agent.h"
#include "lib/log.h"

int agent_run(struct agent_args *a)
{
	int i;

	for (i = 0; i < a->nr_sites; i++)
		probe_site_free(&a->sites[i]);
	p_err("this is copyprof-static, built for the VM guest without libmicrohttpd (Debian "
	      "ships no static libp11-kit for its gnutls: docs/design.md#linking); run the "
	      "dynamically linked copyprof for the agent");
	return EXIT_RUNTIME;
}
