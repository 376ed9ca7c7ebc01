package logs

import (
	"path/filepath"
	"testing"
	"time"
)

// wildKey is what a key of an excerpt must read as.
type wildKey struct {
	controller, key string
	// failures counts its failure lines, requeues its RequeueAfter lines
	// (Flux's "Reconciliation finished … next run in"), rateLimited its
	// Requeue: true lines (Crossplane's "Successfully requested creation of
	// external resource"), starts its "Reconciling" lines.
	failures, requeues, rateLimited, starts int
	lastError                               string
	// retryIn is the next retry the last failure states (Flux).
	retryIn time.Duration
	// retries is the retry count the last failure states (Istio's "retry
	// count: 11"); gaveUp counts the lines that gave the key up
	// ("Dropping … out of the queue"), not in failures.
	retries, gaveUp int
}

// wildCase is one excerpt and what it must read as.
type wildCase struct {
	file string
	ref  time.Time // when klog's year-less lines were written
	keys []wildKey
	// dialects counts the records per dialect.
	dialects            map[string]int
	unreadable, untimed int
	// at is the time of the first key's last record; clientGo says its
	// controller runs a client-go work queue.
	at       string
	clientGo bool
	// limiter is the limiter the project sets, when the dialect knows it;
	// limiters the limiter of a controller that sets its own (by name),
	// when the project's others do not (kube-controller-manager's
	// namespace controller).
	limiter  Limiter
	limiters map[string]Limiter
	// missed are keys ("controller key") a reader of the lines sees
	// failing that the reader leaves out on purpose (precision before
	// recall: no retry stated, no namespace/name in the line): it must
	// not find them, nor any other.
	missed []string
}

// TestWildLogs reads every excerpt of testdata/wild (see its README for
// where each comes from) as Store.Read does, and checks per excerpt the
// keys, their controllers, failure counts, last errors and stated retries,
// the records per dialect, and the lines that look like failures but cannot
// be read. The expected answers were written by reading the lines.
func TestWildLogs(t *testing.T) {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	// cert-manager's, by controller (pkg/controller/util.go).
	certificates := Limiter{BaseDelay: time.Second, MaxDelay: 30 * time.Second}
	others := Limiter{BaseDelay: 5 * time.Second, MaxDelay: 5 * time.Minute}
	// Crossplane providers' managed reconcilers (crossplane-runtime's
	// ratelimiter.NewController).
	crossplane := Limiter{BaseDelay: time.Second, MaxDelay: time.Minute}
	sameConflict := `Operation cannot be fulfilled on certificaterequests.cert-manager.io "game2048-tls-bq8nf": the object has been modified; please apply your changes to the latest version and try again`
	tests := []wildCase{
		{
			file: "cert-manager-4437.log", ref: day(2021, 9, 8),
			keys: []wildKey{{controller: "certificates-readiness", key: "app-develop/gotenberg.develop.mydomain.com-tls", failures: 1,
				lastError: `Operation cannot be fulfilled on certificates.cert-manager.io "gotenberg.develop.mydomain.com-tls": StorageError: invalid object, Code: 4, Key: /cert-manager.io/certificates/app-develop/gotenberg.develop.mydomain.com-tls, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ddc8cb89-4ebc-4bef-aa28-7a0aedb26cf9, UID in object meta: `}},
			dialects: map[string]int{"cert-manager (klog text)": 1}, at: "2021-09-07T15:18:41.45295286Z", limiter: certificates,
		},
		{
			file: "cert-manager-3594.log", ref: day(2021, 2, 4),
			keys: []wildKey{{controller: "certificaterequests-issuer-acme", key: "fleet-system/gateway-routing-dd963271-6m5rq", failures: 1,
				lastError: `Operation cannot be fulfilled on certificaterequests.cert-manager.io "gateway-routing-dd963271-6m5rq": the object has been modified; please apply your changes to the latest version and try again`}},
			dialects: map[string]int{"cert-manager (klog text)": 1}, at: "2021-02-03T17:08:37.40263Z", limiter: others,
		},
		{
			file: "cert-manager-3897.log", ref: day(2021, 6, 15),
			keys: []wildKey{{controller: "certificates-key-manager", key: "default/example-com", failures: 1,
				lastError: `Operation cannot be fulfilled on certificates.cert-manager.io "example-com": the object has been modified; please apply your changes to the latest version and try again`}},
			dialects: map[string]int{"cert-manager (klog text)": 1}, at: "2021-06-14T08:25:43.390885Z", limiter: certificates,
		},
		{
			file: "cert-manager-3772.log", ref: day(2021, 3, 16),
			keys: []wildKey{{controller: "CertificateKeyManager", key: "NAMESPACE/INGRESS_NAME-tls", failures: 1,
				lastError: `Operation cannot be fulfilled on certificates.cert-manager.io "INGRESS_NAME-tls": the object has been modified; please apply your changes to the latest version and try again`}},
			// v1.2's name of certificates-key-manager: its 1s..30s.
			dialects: map[string]int{"cert-manager (klog text)": 1}, at: "2021-03-15T12:33:57.042284Z", limiter: certificates,
		},
		{
			file: "cert-manager-3414.log", ref: day(2020, 10, 27),
			keys: []wildKey{
				{controller: "certificaterequests-issuer-venafi", key: "game-2048/game2048-tls-bq8nf", failures: 1, lastError: sameConflict},
				{controller: "certificaterequests-issuer-acme", key: "game-2048/game2048-tls-bq8nf", failures: 1, lastError: sameConflict},
				{controller: "certificaterequests-issuer-selfsigned", key: "game-2048/game2048-tls-bq8nf", failures: 1, lastError: sameConflict},
			},
			dialects: map[string]int{"cert-manager (klog text)": 3}, at: "2020-10-26T12:20:33.367691Z", limiter: others,
		},
		{
			file: "flux2-4509.log",
			keys: []wildKey{
				{controller: "kustomization", key: "flux-system/infra-unstable", failures: 1, lastError: "kustomize build failed: kustomization.yaml is empty", retryIn: 30 * time.Minute},
				{controller: "kustomization", key: "flux-system/apps-unstable", failures: 1, lastError: "kustomize build failed: kustomization.yaml is empty", retryIn: 30 * time.Minute},
			},
			// Flux since fluxcd/pkg runtime v0.14.0 (April 2022): 750ms..15m.
			dialects: map[string]int{"Flux (JSON)": 2}, at: "2024-02-12T05:55:53.572Z", limiter: Limiter{BaseDelay: 750 * time.Millisecond, MaxDelay: 15 * time.Minute},
		},
		{
			file: "kustomize-controller-491.log",
			keys: []wildKey{{controller: "kustomization", key: "monitoring/kube-prometheus-components", failures: 1,
				lastError: "too many fields within: grafana-dashboard-bucket_replicate_", retryIn: time.Minute}},
			dialects: map[string]int{"Flux (JSON)": 1}, at: "2021-11-19T10:41:41.825Z",
		},
		{
			file: "source-controller-89.log",
			keys: []wildKey{{controller: "gitrepository", key: "default/podinfo", failures: 1, requeues: 1,
				lastError: "git clone error: ssh: handshake failed: ssh: unable to authenticate, attempted methods [none publickey], no supported methods remain"}},
			dialects: map[string]int{"controller-runtime (JSON)": 1, "Flux (JSON)": 1}, at: "2020-07-15T08:21:18.954Z",
		},
		{
			file: "flux2-836.log",
			keys: []wildKey{
				{controller: "gitrepository", key: "flux-system/k8s-prod", requeues: 2},
				{controller: "gitrepository", key: "flux-system/app", requeues: 2},
			},
			dialects: map[string]int{"Flux (JSON)": 4}, at: "2021-01-31T18:58:45.618Z",
		},
		{file: "flux2-4811.log"},
		{
			file: "rancher-turtles-2321.log", ref: day(2026, 4, 24),
			keys: []wildKey{{controller: "topology/cluster", key: "capi-clusters/docker-rke2-example", failures: 1,
				lastError: "error reconciling the Cluster topology: failed to reconcile DockerMachineTemplate capi-clusters/docker-rke2-example-mzztq: failed to get spec.machineTemplate.infrastructureRef.apiVersion from RKE2ControlPlane"}},
			dialects: map[string]int{"controller-runtime (klog text)": 1}, at: "2026-04-23T08:04:00.537132Z",
		},
		{
			file: "capz-871.log", ref: day(2020, 8, 12),
			keys: []wildKey{{controller: "azuremachine", key: "default/vmss-md-0-control-plane-8ztgd", failures: 1,
				lastError: "error patching conditions: The condition \"Ready\" was modified by a different process and this caused a merge/ChangeCondition conflict:   &v1alpha3.Condition{\n  \tType:               \"Ready\",\n- \tStatus:             \"Unknown\",\n+ \tStatus:             \"True\",\n  \tSeverity:           \"\",\n- \tLastTransitionTime: v1.Time{Time: s\"2020-08-11 16:54:18 +0000 UTC\"},\n+ \tLastTransitionTime: v1.Time{Time: s\"2020-08-11 16:54:30 +0000 UTC\"},\n  \tReason:             \"\",\n  \tMessage:            \"\",\n  }\n"}},
			dialects: map[string]int{"controller-runtime (klog text)": 1}, at: "2020-08-11T16:54:30.919241Z",
		},
		{
			file: "capz-3107.log", ref: day(2023, 1, 28),
			keys: []wildKey{{controller: "azuremachinepoolmachine", key: "REDACTED/REDACTED", failures: 1,
				lastError: `AzureMachinePoolMachine.infrastructure.cluster.x-k8s.io "REDACTED" is invalid: status.latestModelApplied: Required value`}},
			dialects: map[string]int{"controller-runtime (klog text)": 1}, at: "2023-01-27T10:26:42.645793Z",
		},
		{file: "capz-1008.log", unreadable: 1},
		{
			file: "stolostron-1037.log",
			keys: []wildKey{{controller: "clusterrole-controller", key: "local-cluster", failures: 1,
				lastError: `Operation cannot be fulfilled on managedclusters.cluster.open-cluster-management.io "local-cluster": the object has been modified; please apply your changes to the latest version and try again`}},
			dialects: map[string]int{"controller-runtime (zap console)": 1}, at: "2025-08-12T13:35:52Z",
		},
		{file: "hypershift-2043.log", unreadable: 1},
		{
			file: "karpenter-2351.log",
			keys: []wildKey{{controller: "counter", key: "default", failures: 1,
				lastError: `patching provisioner, Internal error occurred: failed calling webhook "defaulting.webhook.provisioners.karpenter.sh": failed to call webhook: Post "https://karpenter.karpenter.svc:443/default-resource?timeout=10s": no endpoints available for service "karpenter"`}},
			dialects: map[string]int{"controller-runtime (zap console)": 1}, untimed: 1,
		},
		{file: "aro-rp-1613.log", unreadable: 2},
		{
			file:     "ops-10.log",
			keys:     []wildKey{{controller: "taskrun", key: "ops-system/alert-gpu-zombie", failures: 1, lastError: "no node found"}},
			dialects: map[string]int{"controller-runtime (zap console)": 1}, at: "2025-07-14T06:23:12Z",
		},
		{
			file: "kubeflow-notebooks-62.log",
			keys: []wildKey{{controller: "notebook", key: "<REDACTED>/mini-notebook-gpu", failures: 1,
				lastError: `Operation cannot be fulfilled on notebooks.kubeflow.org "mini-notebook-gpu": the object has been modified; please apply your changes to the latest version and try again`}},
			dialects: map[string]int{"controller-runtime (zap console)": 1}, at: "2024-10-01T13:07:25.847Z",
		},
		{
			file: "dragonfly-operator-571.log",
			keys: []wildKey{{controller: "Dragonfly", key: "harbor-system/harbor-dragonfly", failures: 1,
				lastError: "failed to reconcile dragonfly resources: failed to generate dragonfly resources"}},
			dialects: map[string]int{"controller-runtime (zap console)": 1}, at: "2026-08-06T08:44:27Z",
		},
		{file: "provider-scaleway-224.log", unreadable: 1},
		{
			file: "kubeblocks-2436.log",
			keys: []wildKey{{controller: "cluster", key: "kb-class-family-general", failures: 1,
				lastError: "an empty namespace may not be set when a resource name is provided"}},
			dialects: map[string]int{"controller-runtime (zap console)": 1}, at: "2023-04-06T11:42:33.777Z",
		},
		{
			// Pretty-printed by jq, one field a line: each record put back
			// on one line (the joiner), its one "Reconciler error" read.
			file:     "helm-controller-153.log",
			keys:     []wildKey{{controller: "helmrelease", key: "kraan-test/microservice", failures: 1, lastError: `namespaces "simple" not found`}},
			dialects: map[string]int{"controller-runtime (JSON)": 1}, at: "2020-11-24T09:14:28.484Z",
		},
		{
			// The stack trace a viewer expanded into real lines: the first
			// line is the record cut inside its "stacktrace", every field
			// read before it.
			file: "manageiq-pods-788.log",
			keys: []wildKey{{controller: "manageiq-controller", key: "cp4waiops/im-iminstall", failures: 1,
				lastError: `Deployment.apps "httpd" is invalid: spec.template.spec.volumes[2].name: Duplicate value: "user-auth-config"`}},
			dialects: map[string]int{"controller-runtime (JSON)": 1}, at: "2022-01-20T18:59:36.201749Z",
		},
		{file: "argo-applicationset-52.log"},
		{file: "argo-applicationset-352.log"},
		{file: "argo-cd-14184.log"},
		{
			// The user cut the errorVerbose short ("\...}"): every field
			// read is before it.
			file: "provider-aws-1495.log",
			keys: []wildKey{{controller: "managed/role.iam.aws.crossplane.io", key: "demo-9kjmv", failures: 1,
				lastError: "cannot check whether object is up-to-date: malformed AssumeRolePolicyDocument JSON: invalid character '}' looking for beginning of object key string"}},
			dialects: map[string]int{"Crossplane (zap console)": 1}, at: "2022-09-26T14:09:48.648786Z", limiter: crossplane,
		},
		{
			// The events line's message is in its JSON, not a line of the
			// reconciler's: not a record.
			file:     "crossplane-4099.log",
			keys:     []wildKey{{controller: "managed/cloudplatform.gcp.upbound.io/v1beta1, kind=serviceaccount", key: "sample-bucket-1-v7t6x-6276p", rateLimited: 1}},
			dialects: map[string]int{"Crossplane (zap console)": 1}, at: "2023-05-16T07:58:04.061829Z", limiter: crossplane,
		},
		{
			// The events logger's line of the same message names no
			// controller: not a record.
			file:     "provider-upjet-aws-816-create.log",
			keys:     []wildKey{{controller: "managed/ec2.aws.upbound.io/v1beta1, kind=transitgatewayvpcattachment", key: "test-vpc-ali-123-tgw-attachment", rateLimited: 1}},
			dialects: map[string]int{"Crossplane (zap console)": 1}, at: "2023-11-23T16:32:27Z", limiter: crossplane,
		},
		{
			// Crossplane's own "Reconciling" reads as controller-runtime's,
			// with a managed reconciler's limiter.
			file:     "provider-upjet-aws-816-update.log",
			keys:     []wildKey{{controller: "managed/ec2.aws.upbound.io/v1beta1, kind=transitgatewayvpcattachmentaccepter", key: "test-vpc-ali-123-tgw-attachment", starts: 1}},
			dialects: map[string]int{"controller-runtime (zap console)": 1}, at: "2023-11-23T16:32:59Z", limiter: crossplane,
		},
		{
			file: "prometheus-operator-488.log", ref: day(2017, 7, 21),
			keys: []wildKey{{controller: "prometheus-operator", key: "monitoring/k8s", failures: 2,
				lastError: "syncing version failed: scaling in progress, 2 expected replicas, 1 found replicas"}},
			dialects: map[string]int{"prometheus-operator (klog text)": 2}, at: "2017-07-20T01:25:02.44532Z", clientGo: true,
		},
		{
			file: "prometheus-operator-3327.log", ref: day(2020, 7, 10),
			keys: []wildKey{{controller: "prometheus-operator", key: "prometheus-operator", failures: 1,
				lastError: `creating config failed: could not generate basicAuth for servicemonitor my-app. secret username key "user" in secret "basic-auth" not found`}},
			dialects: map[string]int{"prometheus-operator (klog text)": 1}, at: "2020-07-09T12:11:36.444821Z", clientGo: true,
		},
		{
			file: "kubernetes-29735.log", ref: day(2016, 7, 28),
			// Pasted newest first: read in time order.
			keys: []wildKey{
				{controller: "deployment-controller", key: "default/application-celery-unstable", failures: 1,
					lastError: `error creating replica set application-celery-unstable: replicasets "application-celery-unstable-1891916216" already exists`},
				{controller: "deployment-controller", key: "default/application-unstable", failures: 1,
					lastError: `error creating replica set application-unstable: replicasets "application-unstable-900752437" already exists`},
			},
			dialects: map[string]int{"kube-controller-manager (klog text)": 2}, at: "2016-07-26T12:42:27.557964Z", clientGo: true,
		},
		{
			file: "kubernetes-26673.log", ref: day(2016, 7, 28),
			keys: []wildKey{
				{controller: "deployment-controller", key: "default/application-unstable", failures: 2,
					lastError: `error creating replica set application-unstable: replicasets "application-unstable-900752437" already exists`},
				{controller: "deployment-controller", key: "default/application-celery-worker-unstable", failures: 1,
					lastError: `error creating replica set application-celery-worker-unstable: replicasets "application-celery-worker-unstable-3295993310" already exists`},
				{controller: "deployment-controller", key: "default/application-celery-unstable", failures: 1,
					lastError: `error creating replica set application-celery-unstable: replicasets "application-celery-unstable-1891916216" already exists`},
			},
			// Its lines are not in time order: read sorted.
			dialects: map[string]int{"kube-controller-manager (klog text)": 4}, at: "2016-07-26T12:42:26.706639Z", clientGo: true,
		},
		{
			file: "kubernetes-44724.log", ref: day(2017, 4, 21),
			keys: []wildKey{{controller: "deployment-controller", key: "kube-system/monitoring-grafana", failures: 1,
				lastError: `Operation cannot be fulfilled on deployments.extensions "monitoring-grafana": the object has been modified; please apply your changes to the latest version and try again`}},
			dialects: map[string]int{"kube-controller-manager (klog text)": 1}, at: "2017-04-20T17:53:18.017559Z", clientGo: true,
		},
		{
			file: "kubernetes-43730.log", ref: day(2017, 3, 29),
			keys: []wildKey{{controller: "deployment-controller", key: "test5/frontend", failures: 1,
				lastError: `Operation cannot be fulfilled on deployments.extensions "frontend": the object has been modified; please apply your changes to the latest version and try again`}},
			dialects: map[string]int{"kube-controller-manager (klog text)": 1}, at: "2017-03-28T01:41:35.692999Z", clientGo: true,
		},
		{
			file: "cluster-monitoring-operator-616.log", ref: day(2020, 1, 17),
			keys: []wildKey{
				{controller: "deployment-controller", key: "openshift-monitoring/prometheus-operator", failures: 1,
					lastError: `Operation cannot be fulfilled on deployments.apps "prometheus-operator": the object has been modified; please apply your changes to the latest version and try again`},
				{controller: "deployment-controller", key: "openshift-monitoring/kube-state-metrics", failures: 1,
					lastError: `Operation cannot be fulfilled on deployments.apps "kube-state-metrics": the object has been modified; please apply your changes to the latest version and try again`},
			},
			dialects: map[string]int{"kube-controller-manager (klog text)": 2}, at: "2020-01-16T13:45:41.212683Z", clientGo: true,
		},
		{
			// The real kube-controller-manager 1.37.2 of this repository's e2e
			// tier, as the container runtime's file holds it (CRI prefix).
			// The resourcequota controller's "Error processing resource quota
			// work item" queueKey="q/q" is a key's failure too (its worker
			// calls AddRateLimited after it): the generic reader reads it
			// (the message opens with the failure, the key is the one key
			// field), under the file's name.
			file: "kube-controller-manager-e2e.log", ref: day(2026, 12, 3),
			keys: []wildKey{
				// replica_set.go's failures: of the replicaset controller,
				// the only one of its two whose "Starting controller" the
				// log holds (name="replicaset").
				{controller: "replicaset-controller", key: "demo/kubectl-backoff-demo-7dcddd6d9", failures: 1,
					lastError: "read version: 390 is not as new as written version: 399 for group resource replicasets.apps"},
				{controller: "replicaset-controller", key: "demo/demo-7d9f8b6c5d", failures: 1,
					lastError: "read version: 390 is not as new as written version: 396 for group resource replicasets.apps"},
				{controller: "replicaset-controller", key: "q/web-7655778b6f", failures: 13,
					lastError: `pods "web-7655778b6f-lkqkt" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0`},
				{controller: "resourcequota-controller", key: "q/q", failures: 1,
					lastError: `Operation cannot be fulfilled on resourcequotas "q": the object has been modified; please apply your changes to the latest version and try again`},
				{controller: "namespace-controller", key: "stuck", failures: 7,
					lastError: "unable to retrieve the complete list of server APIs: broken.example.com/v1beta1: stale GroupVersion discovery: broken.example.com/v1beta1"},
			},
			dialects: map[string]int{"kube-controller-manager (klog text)": 22, genericName: 1}, at: "2026-12-03T12:44:19.111263088Z", clientGo: true, // the CRI prefix's time, as with kubectl --timestamps
			// nsControllerRateLimiter: a namespace is retried at least every minute.
			limiters: map[string]Limiter{"namespace-controller": {BaseDelay: 5 * time.Millisecond, MaxDelay: time.Minute}},
		},
		{
			file: "k8s-worker-pod-autoscaler-111.log", ref: day(2020, 8, 5),
			keys: []wildKey{{controller: "controller", key: "{titan-dq-latest/realtime-analysis-8c8de add}", failures: 1,
				lastError: "Deployment realtime-analysis-8c8de not found in namespace titan-dq-latest"}},
			dialects: map[string]int{"sample-controller (klog text)": 1}, at: "2020-08-04T06:17:42.597049Z", clientGo: true,
		},
	}
	tests = append(tests, longtailCases(day)...)
	files, err := filepath.Glob("testdata/wild/*.log")
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.file] = true
		t.Run(tt.file, func(t *testing.T) { checkWild(t, tt) })
	}
	for _, f := range files {
		if !covered[filepath.Base(f)] {
			t.Errorf("%s has no test case", f)
		}
	}
	if len(files) < 30 {
		t.Errorf("%d excerpts, want at least 30", len(files))
	}
}
