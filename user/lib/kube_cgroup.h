/* SPDX-License-Identifier: GPL-2.0 */
/* kube_cgroup.h: a Kubernetes pod and container read from a cgroup path in the kubelet's layout */
#ifndef CP_KUBE_CGROUP_H
#define CP_KUBE_CGROUP_H

#include <stdbool.h>

#define KUBE_POD_UID_LEN 36	  /* 8-4-4-4-12 hex digits */
#define KUBE_CONTAINER_ID_MAX 128 /* containerd and docker use 64 hex digits */

/*
 * What a cgroup path says of a pod. The pod's namespace and name are not in the path: the
 * kubelet names pod cgroups by uid only (docs/fleet.md#containers says how to join them).
 */
struct kube_cgroup {
	char pod_uid[KUBE_POD_UID_LEN + 1];	      /* "d9c1a4e2-...", dashes as the API has */
	char qos[12];				      /* "guaranteed", "burstable", "besteffort" */
	char container_id[KUBE_CONTAINER_ID_MAX + 1]; /* "" for the pod's own cgroup */
	char runtime[16]; /* "containerd", "crio", "docker" when the path says; else "" */
};

/*
 * Parses @path (as cgroup_path_of_id gives it, from the cgroup2 root; any prefix before the
 * kubepods part is allowed, e.g. kind's /kubelet.slice/...) in either of the kubelet's layouts:
 *   systemd:  .../kubepods.slice[/kubepods-QOS.slice]/kubepods[-QOS]-pod<UID_>.slice
 *             [/<runtime>-<ID>.scope]  (the uid's dashes written as underscores)
 *   cgroupfs: .../kubepods[/QOS]/pod<UID>[/<ID>]
 * No QoS part means guaranteed. Returns true and fills @k when @path is a pod's cgroup or one
 * of its containers'; false for anything else (@k then zeroed). @path may be any bytes.
 */
bool kube_cgroup_parse(const char *path, struct kube_cgroup *k);

#endif
