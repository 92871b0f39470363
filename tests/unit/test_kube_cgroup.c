// SPDX-License-Identifier: GPL-2.0
/* test_kube_cgroup.c: pods and containers read from cgroup paths in both kubelet layouts */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "lib/kube_cgroup.h"

#define UID "0b2f8c4e-1111-4a2b-9c3d-0123456789ab"
#define UID_ "0b2f8c4e_1111_4a2b_9c3d_0123456789ab"
#define CID "4d5c0a3f9e8b7a6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d"

static void expect_pod(const char *path, const char *qos, const char *container,
		       const char *runtime)
{
	struct kube_cgroup k;

	if (!kube_cgroup_parse(path, &k))
		fail_msg("not read as a pod: %s", path);
	assert_string_equal(k.pod_uid, UID);
	assert_string_equal(k.qos, qos);
	assert_string_equal(k.container_id, container);
	assert_string_equal(k.runtime, runtime);
}

static void expect_none(const char *path)
{
	struct kube_cgroup k;

	if (kube_cgroup_parse(path, &k))
		fail_msg("read as pod %s: %s", k.pod_uid, path);
	assert_string_equal(k.pod_uid, "");
	assert_string_equal(k.qos, "");
}

static void systemd_layout(void **state)
{
	(void)state;
	expect_pod("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
		   ".slice/cri-containerd-" CID ".scope",
		   "burstable", CID, "containerd");
	expect_pod("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_
		   ".slice/crio-" CID ".scope",
		   "besteffort", CID, "crio");
	/* Guaranteed pods have no QoS slice. */
	expect_pod("/kubepods.slice/kubepods-pod" UID_ ".slice/docker-" CID ".scope", "guaranteed",
		   CID, "docker");
	/* The pod's own cgroup: no container. */
	expect_pod("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice",
		   "burstable", "", "");
	/* kind nests the tree under kubelet.slice; a test's prefix is fine too. */
	expect_pod("/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-burstable.slice/"
		   "kubelet-kubepods-burstable-pod" UID_ ".slice/cri-containerd-" CID ".scope",
		   "burstable", CID, "containerd");
}

static void cgroupfs_layout(void **state)
{
	(void)state;
	expect_pod("/kubepods/burstable/pod" UID "/" CID, "burstable", CID, "");
	expect_pod("/kubepods/besteffort/pod" UID "/" CID, "besteffort", CID, "");
	expect_pod("/kubepods/pod" UID "/" CID, "guaranteed", CID, "");
	expect_pod("/kubepods/pod" UID, "guaranteed", "", "");
	expect_pod("/copyprof-test-1-a/kubepods/burstable/pod" UID "/c0ffee01//", "burstable",
		   "c0ffee01", "");
}

static void not_pods(void **state)
{
	(void)state;
	expect_none("/");
	expect_none("");
	expect_none("/system.slice/ssh.service");
	expect_none("/kubepods.slice");
	expect_none("/kubepods/burstable");
	expect_none("/kubepods.slice/kubepods-burstable.slice");
	/* The uid's dashes are underscores in systemd's names and dashes in cgroupfs's. */
	expect_none("/kubepods/burstable/pod" UID_ "/" CID);
	expect_none("/kubepods.slice/kubepods-pod" UID ".slice");
	/* A uid one digit short, one not hex, upper case. */
	expect_none("/kubepods/pod0b2f8c4e-1111-4a2b-9c3d-0123456789a");
	expect_none("/kubepods/pod0b2f8c4e-1111-4a2b-9c3d-0123456789ag");
	expect_none("/kubepods/pod0B2F8C4E-1111-4A2B-9C3D-0123456789AB");
	/* A container id with a character no runtime uses, or a level too many. */
	expect_none("/kubepods/pod" UID "/abc.def");
	expect_none("/kubepods/pod" UID "/" CID "/more");
	/* crio's conmon scope is not a container; nor is an unknown runtime's. */
	expect_none("/kubepods.slice/kubepods-pod" UID_ ".slice/crio-conmon-" CID ".scope");
	expect_none("/kubepods.slice/kubepods-pod" UID_ ".slice/podman-" CID ".scope");
	/* A QoS class the kubelet does not have. */
	expect_none("/kubepods/platinum/pod" UID);
	expect_none("/kubepods.slice/kubepods-platinum.slice/kubepods-platinum-pod" UID_ ".slice");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(systemd_layout),
		cmocka_unit_test(cgroupfs_layout),
		cmocka_unit_test(not_pods),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
