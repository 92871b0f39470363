// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the kubelet cgroup path parser (kube_cgroup_parse) on any bytes */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/kube_cgroup.h"

/*
 * A cgroup's path is outside input: anyone who may create a cgroup names it. Besides the
 * sanitizers: a refusal leaves nothing set; an accepted path gives a uid of 8-4-4-4-12 lower
 * hex digits with dashes, a known QoS class, a container id of letters and digits only, and
 * every field comes out NUL-terminated within its array.
 */
static int hexdig(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kube_cgroup k;
	char *path = malloc(size + 1);
	size_t i;

	if (!path)
		return 0;
	memcpy(path, data, size);
	path[size] = 0;
	if (!kube_cgroup_parse(path, &k)) {
		for (i = 0; i < sizeof(k); i++)
			if (((const char *)&k)[i])
				__builtin_trap();
		free(path);
		return 0;
	}
	if (strlen(k.pod_uid) != KUBE_POD_UID_LEN)
		__builtin_trap();
	for (i = 0; i < KUBE_POD_UID_LEN; i++)
		if ((i == 8 || i == 13 || i == 18 || i == 23) ? k.pod_uid[i] != '-'
							      : !hexdig(k.pod_uid[i]))
			__builtin_trap();
	if (strcmp(k.qos, "guaranteed") && strcmp(k.qos, "burstable") &&
	    strcmp(k.qos, "besteffort"))
		__builtin_trap();
	if (strnlen(k.container_id, sizeof(k.container_id)) == sizeof(k.container_id) ||
	    strnlen(k.runtime, sizeof(k.runtime)) == sizeof(k.runtime))
		__builtin_trap();
	for (i = 0; k.container_id[i]; i++)
		if (!((k.container_id[i] >= '0' && k.container_id[i] <= '9') ||
		      (k.container_id[i] >= 'a' && k.container_id[i] <= 'z') ||
		      (k.container_id[i] >= 'A' && k.container_id[i] <= 'Z')))
			__builtin_trap();
	/* The uid is in the path, as written (systemd's '_' for '-'). */
	if (!strstr(path, "pod"))
		__builtin_trap();
	free(path);
	return 0;
}
