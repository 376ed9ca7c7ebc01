package logs

import "time"

// longtailCases are the excerpts of controllers no dialect was written for
// (issue #27): client-go work-queue controllers that say "failed on KEY,
// will retry" in their own words, read by the generic reader (or by a
// dialect added for them), and logs of errors that are not a key's
// failure, which must yield no key. Every answer was written by reading
// the lines, before the reader was.
func longtailCases(day func(int, time.Month, int) time.Time) []wildCase {
	const generic = genericName
	return []wildCase{
		{
			// The retry count is Istio's (controllers.Queue): the limiter's
			// count of the key's failures, a fact the line states.
			file: "istio-46065.log",
			keys: []wildKey{{controller: "validation", key: "istiod-default-validator", failures: 2, retries: 11,
				lastError: "webhook is not ready, retry"}},
			dialects: map[string]int{generic: 2}, at: "2023-07-18T22:46:14.498089Z", clientGo: true,
		},
		{
			file: "velero-3588.log",
			keys: []wildKey{
				{controller: "downloadrequest", key: "velero/velero-saversobackup-20210313014417-20210313024543", failures: 1,
					lastError: `backup.velero.io "velero-saversobackup-20210313014417" not found`},
				{controller: "downloadrequest", key: "velero/velero-saversobackup-20210313014910-20210313024947", failures: 1,
					lastError: `backup.velero.io "velero-saversobackup-20210313014910" not found`},
			},
			dialects: map[string]int{generic: 2}, at: "2021-03-13T01:57:47Z", clientGo: true,
		},
		{
			file: "compliantkubernetes-apps-740.log",
			keys: []wildKey{{controller: "gc-controller", key: "velero/velero-daily-backup", failures: 1,
				lastError: `error getting backup storage location: BackupStorageLocation.velero.io "aws" not found`}},
			dialects: map[string]int{generic: 1}, at: "2022-01-11T13:11:54Z", clientGo: true,
		},
		{
			// Pasted newest first: the drop (17:11:49) came before the
			// failure (17:21:19). The klog line says "fail to sync" but
			// not that it retries: not read.
			file: "longhorn-2579.log", ref: day(2021, 5, 7),
			keys: []wildKey{{controller: "longhorn-kubernetes-pod-controller", key: "monitoring/grafana-75948bb6fd-6tbs5", failures: 1, gaveUp: 1,
				lastError: `longhorn-kubernetes-pod-controller: fail to sync monitoring/grafana-75948bb6fd-6tbs5: volume.longhorn.io "grafana-data" not found`}},
			// 3 lines read: the klog E line is the same attempt's inner
			// cause, counted once with the Dropping line (attempt.go).
			// Pasted newest first: read in time order, the key's last
			// record is its failure at 17:21:19.
			dialects: map[string]int{generic: 3}, at: "2021-05-06T17:21:19Z", clientGo: true,
		},
		{
			// logrus' WARN[228517] is seconds since start: no time. The
			// controller is named by the kind before the key.
			file: "longhorn-193.log", ref: day(2018, 8, 9),
			keys: []wildKey{
				{controller: "Longhorn volume", key: "longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4", gaveUp: 1,
					lastError: "fail to sync longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4: Timeout: request did not complete within allowed duration"},
				{controller: "Longhorn replica", key: "longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4-r-47415ea8", gaveUp: 1,
					lastError: "fail to sync replica for longhorn-system/pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4-r-47415ea8: the server was unable to return a response in the time allotted, but may still be processing the request (put replicas.longhorn.rancher.io pvc-2f2d2a60-99bd-11e8-b448-9600000e03b4-r-47415ea8)"},
			},
			// 4 lines read: each klog "fail to sync" line is the inner cause
			// of the Dropping line after it, counted once (attempt.go).
			dialects: map[string]int{generic: 4}, untimed: 2, clientGo: true,
		},
		{
			file: "longhorn-1993.log",
			keys: []wildKey{
				{controller: "Longhorn instance manager", key: "longhorn-system/instance-manager-e-7ffeb490", failures: 1,
					lastError: `fail to sync instance manager for longhorn-system/instance-manager-e-7ffeb490: instancemanagers.longhorn.io "instance-manager-e-7ffeb490" not found`},
				{controller: "Longhorn instance manager", key: "longhorn-system/instance-manager-r-01709f09", failures: 1,
					lastError: `fail to sync instance manager for longhorn-system/instance-manager-r-01709f09: instancemanagers.longhorn.io "instance-manager-r-01709f09" not found`},
				{controller: "Longhorn instance manager", key: "longhorn-system/instance-manager-r-08c955e7", failures: 1,
					lastError: `fail to sync instance manager for longhorn-system/instance-manager-r-08c955e7: instancemanagers.longhorn.io "instance-manager-r-08c955e7" not found`},
				{controller: "Longhorn instance manager", key: "longhorn-system/instance-manager-e-4571e44f", failures: 1,
					lastError: `fail to sync instance manager for longhorn-system/instance-manager-e-4571e44f: instancemanagers.longhorn.io "instance-manager-e-4571e44f" not found`},
				{controller: "Longhorn node", key: "longhorn-system/homelab-0", failures: 1,
					lastError: `fail to sync node for longhorn-system/homelab-0: nodes.longhorn.io "homelab-0" not found`},
			},
			dialects: map[string]int{generic: 5}, at: "2020-11-17T19:06:17Z", clientGo: true,
		},
		{
			file: "origin-17435.log", ref: day(2017, 11, 23),
			keys: []wildKey{{controller: "stateful_set", key: "kube-system/prometheus", failures: 1,
				lastError: `StatefulSet.apps "prometheus" is invalid: status.currentReplicas: Invalid value: -1: must be greater than or equal to 0`}},
			dialects: map[string]int{generic: 1}, at: "2017-11-22T23:10:02.364507Z", clientGo: true,
		},
		{
			// The last line says "requeuing" at info, with no error field:
			// not read as a failure.
			file: "kubernetes-27634.log", ref: day(2016, 6, 18),
			keys: []wildKey{{controller: "pet_set", key: "default/zoo", failures: 1,
				lastError: `[User "system:serviceaccount:openshift-infra:pet-set-controller" cannot get apps.petsets in project "default"]`}},
			dialects: map[string]int{generic: 1}, at: "2016-06-17T14:05:05.982113Z", clientGo: true,
		},
		{
			file: "kserve-2698.log",
			keys: []wildKey{{controller: "knative.dev.serving.pkg.reconciler.labeler.Reconciler", key: "kserve/sklearn-iris-predictor-default", failures: 1,
				lastError: `failed to set finalizers: Operation cannot be fulfilled on routes.serving.knative.dev "sklearn-iris-predictor-default": the object has been modified; please apply your changes to the latest version and try again`}},
			dialects: map[string]int{"Knative (JSON)": 1}, at: "2023-02-17T12:23:06.314986042Z", clientGo: true,
		},
		{
			// The E line fails to reconcile the pool named "replicapool"
			// (rook-ceph/replicapool, says the D line before it), but says
			// nothing of a retry and names no namespace/name.
			file:   "rook-6174.log",
			missed: []string{"ceph-block-pool-controller rook-ceph/replicapool"},
		},
		{
			// Pasted newest first.
			file: "karmada-4823.log", ref: day(2024, 4, 12),
			keys: []wildKey{
				{controller: "resourceBinding_status_controller", key: "andy/andy-benchmarkdtest50-gdqdcg-kservice", failures: 1,
					lastError: `Operation cannot be fulfilled on kservices.fed.jd.com "andy-benchmarkdtest50-gdqdcg": the object has been modified; please apply your changes to the latest version and try again`},
				{controller: "resourceBinding_status_controller", key: "andy/andy-benchmarkdtest35-xcp884-kservice", failures: 1,
					lastError: `Operation cannot be fulfilled on kservices.fed.jd.com "andy-benchmarkdtest35-xcp884": the object has been modified; please apply your changes to the latest version and try again`},
			},
			// Read in time order: the oldest line's key first.
			dialects: map[string]int{"controller-runtime (klog text)": 2}, at: "2024-04-11T07:00:26.225524Z",
		},
		{
			file: "volcano-384.log", ref: day(2019, 7, 25),
			keys: []wildKey{
				{controller: "job_controller_resync", key: "default/test-job3-default-nginx-5", failures: 2, lastError: "can not find pod <default/test-job3-default-nginx-5> in cache"},
				{controller: "job_controller_resync", key: "default/test-job3-default-nginx-4", failures: 2, lastError: "can not find pod <default/test-job3-default-nginx-4> in cache"},
				{controller: "job_controller_resync", key: "default/test-job3-default-nginx-0", failures: 2, lastError: "can not find pod <default/test-job3-default-nginx-0> in cache"},
			},
			dialects: map[string]int{generic: 6}, at: "2019-07-24T01:27:43.96218Z", clientGo: true,
		},
		{
			// A test harness' wrapping of the operator's line: a failed
			// reconcile of scylla/sct-cluster, no retry said.
			file:   "scylla-operator-266.log",
			missed: []string{"cluster-controller scylla/sct-cluster"},
		},
		{
			// prometheus-operator's slog JSON: utilruntime's "Unhandled
			// Error" with `sync "ns/name" failed: …` as err.
			file: "prometheus-operator-8312.log",
			keys: []wildKey{{controller: "prometheus-operator", key: "monitoring/prometheus-operator-prometheus", failures: 1,
				lastError: `creating statefulset failed: statefulsets.apps "prometheus-prometheus-operator-prometheus" already exists`}},
			dialects: map[string]int{"prometheus-operator (JSON)": 1}, at: "2026-01-22T12:53:40.897992482Z", clientGo: true,
		},

		// Errors that are not a key's failure: no key.
		{file: "kubernetes-74223.log"},                           // leader election lock, docker JSON
		{file: "kube-vip-1005.log", ref: day(2024, 12, 6)},       // leader election: namespace/name of leases
		{file: "ovn-kubernetes-3070.log", ref: day(2022, 7, 16)}, // leader election lost
		{file: "podpreset-webhook-17.log"},                       // webhook TLS handshake
		{file: "opentelemetry-operator-2956.log"},                // webhook TLS handshake
		{file: "contiv-cluster-64.log"},                          // a panic
		{file: "kyverno-14567.log"},                              // start-up: "failed to start …, retrying"
		{file: "ingress-nginx-3443.log", ref: day(2018, 11, 21)}, // requeues "initial-sync", not an object
		{file: "kubernetes-112023.log", ref: day(2022, 8, 26)},   // leader election; "retry after 20s" of no key
		// An info line with error <nil> (the bug its PR fixed): it looks
		// like a failure and is counted as one not read.
		{file: "kubesphere-774.log", ref: day(2019, 9, 22), unreadable: 1},
		{file: "kueue-4520.log"},                                          // key fields, V(3) progress
		{file: "cert-manager-sync-41.log"},                                // debug lines about retries
		{file: "apisix-ingress-controller-287.log", ref: day(2021, 3, 8)}, // lease renewal

		// The hold-out: found after the generic reader's rule was written
		// from the excerpts above, and read against it unchanged.
		{
			file: "gatekeeper-1629.log",
			keys: []wildKey{{controller: "constraint-controller", key: "gvk:AllowedImageRepos.v1beta1.constraints.gatekeeper.sh:blossom-allowed-repos", failures: 1,
				lastError: "Constraint kind AllowedImageRepos is not recognized"}},
			dialects: map[string]int{"controller-runtime (zap console)": 1}, at: "2021-10-22T11:01:29.493Z",
		},
		{
			// The Java Operator SDK's "Error during event processing … failed"
			// of keycloak-XXX/keycloak-XXX: no retry said, but the SDK's
			// ReconciliationDispatcher logs it for every failed attempt,
			// which its retry follows (missed until batch24 read the SDK's
			// code: dialects/builtin.yaml).
			file: "keycloak-11938.log",
			keys: []wildKey{{controller: "java-operator-sdk", key: "keycloak-XXX/keycloak-XXX", failures: 1,
				lastError: "io.fabric8.kubernetes.client.KubernetesClientException: Namespace mismatch. Item namespace:keycloak-XXX. Operation namespace:keycloak-system."}},
			dialects: map[string]int{"Java Operator SDK (plain text)": 1}, at: "2022-05-17T10:59:59.495Z",
			limiter: Limiter{BaseDelay: 2 * time.Second, MaxDelay: 15 * time.Second},
		},
		{file: "istio-34554.log"},                        // "Work item handle failed …, retry after delay 1s" at info, naming no key
		{file: "antrea-3167.log", ref: day(2022, 1, 2)},  // configmap_cafile_content's one item, literally "key"
		{file: "antrea-6120.log", ref: day(2024, 3, 20)}, // a Node event's cluster join failed: no key, no retry
	}
}
