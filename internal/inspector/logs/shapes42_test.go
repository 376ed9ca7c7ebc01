package logs

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// shape42 is one shape of issue #42's list: real lines of it (verbatim from
// a public issue, its address beside the case) and what Store.Read must make
// of them. want is "KEY COUNT ERRPREFIX", one per key, COUNT the failure
// lines the log shows of it (as the corpus answers count); none means no
// key. streak, where a line states the queue's count, is the key's streak
// it gives.
type shape42 struct {
	name   string
	lines  []string
	want   []string
	streak map[string]int
}

// TestShapesOfIssue42 reads, through Store.Read as `get --from-logs FILE`
// does, one real excerpt of each shape of failing-key line issue #42 listed
// as missed on logs nobody wrote a dialect for, and beside each a line of a
// nearby shape that must not be read (a timed poll, an informer's list
// error, an error logged while the sync returns nil). Each case's source is
// its comment; none is from the held-out batches.
func TestShapesOfIssue42(t *testing.T) {
	for _, tt := range []shape42{
		// https://github.com/tencentmusic/cube-studio/issues/134 (verbatim):
		// wrangler (Rancher) through Go's standard log, an [ERROR] tag, a
		// cluster-scoped name in single quotes, no controller named.
		{"Go log, [ERROR] tag, a quoted cluster-scoped name, no controller", []string{
			`2022/11/22 08:51:03 [ERROR] error syncing 'mutating-webhook-configuration': handler need-a-cert: services "webhook-service" not found, requeuing`,
			`2022/11/22 08:51:03 [ERROR] error syncing 'validating-webhook-configuration': handler need-a-cert: services "webhook-service" not found, requeuing`,
			`2022/11/22 08:51:33 [ERROR] error syncing 'mutating-webhook-configuration': handler need-a-cert: services "webhook-service" not found, requeuing`,
			`2022/11/22 08:51:33 [ERROR] error syncing 'validating-webhook-configuration': handler need-a-cert: services "webhook-service" not found, requeuing`,
		}, []string{
			`mutating-webhook-configuration 2 handler need-a-cert: services "webhook-service" not found`,
			`validating-webhook-configuration 2 handler need-a-cert: services "webhook-service" not found`,
		}, nil},
		// https://github.com/kubevirt/kubevirt/issues/2538 (verbatim): a
		// failure said at info level, the verb "reenqueuing", the error in
		// the reason field.
		{"info level, reenqueuing KIND KEY, the error in reason", []string{
			`{"component":"virt-controller","level":"info","msg":"reenqueuing VirtualMachineInstance default/f0d01886-9f8d-4799-85ff-4134b50f740f","pos":"vmi.go:198","reason":"Operation cannot be fulfilled on virtualmachineinstances.kubevirt.io \"f0d01886-9f8d-4799-85ff-4134b50f740f\": the object has been modified; please apply your changes to the latest version and try again","service":"http","timestamp":"2019-07-26T08:10:07.606183Z"}`,
			`{"component":"virt-controller","level":"info","msg":"reenqueuing VirtualMachineInstance default/f5219b10-56f2-4988-a666-630bbcdfbadp","pos":"vmi.go:198","reason":"Operation cannot be fulfilled on virtualmachineinstances.kubevirt.io \"f5219b10-56f2-4988-a666-630bbcdfbadp\": the object has been modified; please apply your changes to the latest version and try again","service":"http","timestamp":"2019-07-26T08:10:16.682315Z"}`,
			`{"component":"virt-controller","level":"info","msg":"reenqueuing VirtualMachineInstance default/f5219b10-56f2-4988-a666-630bbcdfbadp","pos":"vmi.go:198","reason":"Operation cannot be fulfilled on virtualmachineinstances.kubevirt.io \"f5219b10-56f2-4988-a666-630bbcdfbadp\": the object has been modified; please apply your changes to the latest version and try again","service":"http","timestamp":"2019-07-26T08:10:16.743097Z"}`,
		}, []string{
			`default/f0d01886-9f8d-4799-85ff-4134b50f740f 1 Operation cannot be fulfilled on virtualmachineinstances.kubevirt.io`,
			`default/f5219b10-56f2-4988-a666-630bbcdfbadp 2 Operation cannot be fulfilled on virtualmachineinstances.kubevirt.io`,
		}, nil},
		// https://github.com/kubernetes-csi/external-snapshotter/issues/300
		// (verbatim, the first two lines of the comment): another verb
		// ("could not sync content"), the inner cause at E level, then the
		// handler's "Failed to sync content …, will retry again" at I level:
		// one attempt, counted once.
		{"two lines per attempt: could not sync, then will retry", []string{
			`E0927 04:04:34.862225       1 snapshot_controller_base.go:405] could not sync content "snapcontent-1d5d9c1a-8824-4087-b2a3-a824d00fb60c": snapshot controller failed to update snapcontent-1d5d9c1a-8824-4087-b2a3-a824d00fb60c on API server: Operation cannot be fulfilled on volumesnapshotcontents.snapshot.storage.k8s.io "snapcontent-1d5d9c1a-8824-4087-b2a3-a824d00fb60c": the object has been modified; please apply your changes to the latest version and try again`,
			`I0927 04:04:34.862272       1 snapshot_controller_base.go:272] Failed to sync content "snapcontent-1d5d9c1a-8824-4087-b2a3-a824d00fb60c", will retry again: snapshot controller failed to update snapcontent-1d5d9c1a-8824-4087-b2a3-a824d00fb60c on API server: Operation cannot be fulfilled on volumesnapshotcontents.snapshot.storage.k8s.io "snapcontent-1d5d9c1a-8824-4087-b2a3-a824d00fb60c": the object has been modified; please apply your changes to the latest version and try again`,
		}, []string{
			`snapcontent-1d5d9c1a-8824-4087-b2a3-a824d00fb60c 1 snapshot controller failed to update`,
		}, nil},
		// https://github.com/volcano-sh/volcano/issues/384 (verbatim, its
		// whole lines): a key in angle brackets, <namespace/name>.
		{"a key in angle brackets", []string{
			`E0724 01:27:39.562188       1 job_controller_resync.go:62] Failed to sync pod <default/test-job3-default-nginx-4>, retry it, err can not find pod <default/test-job3-default-nginx-4> in cache`,
			`E0724 01:27:39.664435       1 job_controller_resync.go:62] Failed to sync pod <default/test-job3-default-nginx-5>, retry it, err can not find pod <default/test-job3-default-nginx-5> in cache`,
			`E0724 01:27:39.762053       1 job_controller_resync.go:62] Failed to sync pod <default/test-job3-default-nginx-4>, retry it, err can not find pod <default/test-job3-default-nginx-4> in cache`,
			`E0724 01:27:39.862046       1 job_controller_resync.go:62] Failed to sync pod <default/test-job3-default-nginx-0>, retry it, err can not find pod <default/test-job3-default-nginx-0> in cache`,
			`E0724 01:27:39.962108       1 job_controller_resync.go:62] Failed to sync pod <default/test-job3-default-nginx-5>, retry it, err can not find pod <default/test-job3-default-nginx-5> in cache`,
			`E0724 01:27:40.061825       1 job_controller_resync.go:62] Failed to sync pod <default/test-job3-default-nginx-5>, retry it, err can not find pod <default/test-job3-default-nginx-5> in cache`,
		}, []string{
			`default/test-job3-default-nginx-0 1 can not find pod`,
			`default/test-job3-default-nginx-4 2 can not find pod`,
			`default/test-job3-default-nginx-5 3 can not find pod`,
		}, nil},
		// https://github.com/intel/pmem-csi/issues/678 (verbatim, its
		// lines about the claim): the key a UID in quotes, the claim's
		// events around it naming it by namespace/name (no failure of
		// their own).
		{"a UID in quotes", []string{
			`I0611 02:39:27.483231       1 event.go:209] Event(v1.ObjectReference{Kind:"PersistentVolumeClaim", Namespace:"default", Name:"pmem-csi-pvc-ext4-2", UID:"0e72b57a-763d-4d3e-af9a-55600517643c", APIVersion:"v1", ResourceVersion:"18276756", FieldPath:""}): type: 'Normal' reason: 'Provisioning' External provisioner is provisioning volume for claim "default/pmem-csi-pvc-ext4-2"`,
			`E0611 02:39:27.483297       1 controller.go:908] error syncing claim "0e72b57a-763d-4d3e-af9a-55600517643c": failed to provision volume with StorageClass "pmem-csi-sc-ext4": claim Selector is not supported`,
			`I0611 02:39:27.483285       1 event.go:209] Event(v1.ObjectReference{Kind:"PersistentVolumeClaim", Namespace:"default", Name:"pmem-csi-pvc-ext4-2", UID:"0e72b57a-763d-4d3e-af9a-55600517643c", APIVersion:"v1", ResourceVersion:"18276756", FieldPath:""}): type: 'Warning' reason: 'ProvisioningFailed' failed to provision volume with StorageClass "pmem-csi-sc-ext4": claim Selector is not supported`,
		}, []string{
			`0e72b57a-763d-4d3e-af9a-55600517643c 1 failed to provision volume with StorageClass "pmem-csi-sc-ext4"`,
		}, nil},
		// https://github.com/kubernetes-sigs/sig-storage-lib-external-provisioner/pull/101
		// (verbatim): two lines per attempt, the warning stating the
		// queue's count (NumRequeues 14: the 15th failure), then the error.
		{"a UID, two lines per attempt, a stated count", []string{
			`W0111 16:24:40.929792       1 controller.go:886] Retrying syncing claim "33496b4f-53df-11eb-b3b4-525400565f40", failure 14`,
			`E0111 16:24:40.929825       1 controller.go:908] error syncing claim "33496b4f-53df-11eb-b3b4-525400565f40": Index with name uid does not exist`,
		}, []string{
			`33496b4f-53df-11eb-b3b4-525400565f40 1 Index with name uid does not exist`,
		}, map[string]int{"33496b4f-53df-11eb-b3b4-525400565f40": 15}},
		// https://github.com/ceph/ceph-csi/pull/5421 (verbatim, the lines of
		// one attempt): the same in klog structured, the error inside
		// "Unhandled Error"'s err, the count in failures=.
		{"a UID, structured, Unhandled Error after the stated count", []string{
			`I1110 15:04:03.977910       1 controller.go:986] "Retrying syncing claim" key="6c351d36-91ff-45f3-980b-a5d1a907b723" failures=0`,
			`E1110 15:04:03.977943       1 controller.go:1009] "Unhandled Error" err="error syncing claim \"6c351d36-91ff-45f3-980b-a5d1a907b723\": rpc error: code = InvalidArgument desc = failed to fetch monitor list using clusterID (75c3a4d5-2a91-47c4-a76b-716eff9da391): missing configuration for cluster ID: \"75c3a4d5-2a91-47c4-a76b-716eff9da391\"" logger="UnhandledError"`,
		}, []string{
			`6c351d36-91ff-45f3-980b-a5d1a907b723 1 rpc error: code = InvalidArgument`,
		}, nil},
		// https://github.com/TwiN/k8s-ttl-controller/issues/94 (verbatim):
		// Go's standard log, an error with no key, then a timed poll's
		// "sleeping for 5m0s": not read.
		{"negative: Go log, an error naming no key, a timed poll", []string{
			`2024/08/15 12:47:12 Error during execution: unable to retrieve the complete list of server APIs: tap.linkerd.io/v1alpha1: stale GroupVersion discovery: tap.linkerd.io/v1alpha1`,
			`2024/08/15 12:47:12 Execution took 18ms, sleeping for 5m0s`,
		}, nil, nil},
		// https://github.com/kubernetes/minikube/issues/7162 (verbatim): a
		// discovery (list) error of a controller, no key; a group/version
		// is no namespace/name.
		{"negative: a discovery error, group/version for a key", []string{
			`W0323 18:13:40.815012       1 garbagecollector.go:640] failed to discover some groups: map[core.gardener.cloud/v1alpha1:the server is currently unable to handle the request core.gardener.cloud/v1beta1:the server is currently unable to handle the request settings.gardener.cloud/v1alpha1:the server is currently unable to handle the request]`,
			`E0323 18:13:59.523148       1 resource_quota_controller.go:407] unable to retrieve the complete list of server APIs: core.gardener.cloud/v1alpha1: the server is currently unable to handle the request, core.gardener.cloud/v1beta1: the server is currently unable to handle the request, settings.gardener.cloud/v1alpha1: the server is currently unable to handle the request`,
		}, nil, nil},
		// https://github.com/kubesphere/kubesphere/pull/774 (verbatim): the
		// handler logged "Error syncing …, retrying" while the sync
		// returned nil (error<nil>): no failure.
		{"negative: an error logged while the sync returns nil", []string{
			`I0921 15:01:28.672756   83578 destinationrule_controller.go:480] Error syncing virtualservice for service, retrying.keykubesphere-devops-system/s2ioperatorerror<nil>`,
		}, nil, nil},
		// https://github.com/kubeflow/spark-operator/issues/196 (verbatim,
		// its whole lines): client-go's HandleError(fmt.Errorf("failed to
		// sync %q: %v", key, err)) before AddRateLimited, no retry word; an
		// informer's watch line between, no key of its own.
		{"the idiom without retry words, an informer's watch line between", []string{
			`E0620 13:52:27.962182       1 controller.go:138] failed to sync ScheduledSparkApplication "default/braze-blob-delete": pods "braze-blob-delete-1529197207414975848-1529197209364-driver" not found`,
			`W0620 14:08:40.257852       1 reflector.go:341] k8s.io/spark-on-k8s-operator/pkg/controller/sparkapplication/spark_pod_monitor.go:114: watch of *v1.Pod ended with: too old resource version: 1649124 (1649155)`,
			`E0620 14:09:07.975880       1 controller.go:138] failed to sync ScheduledSparkApplication "default/braze-blob-delete": pods "braze-blob-delete-1529197207414975848-1529197209364-driver" not found`,
		}, []string{
			`default/braze-blob-delete 2 pods "braze-blob-delete-1529197207414975848-1529197209364-driver" not found`,
		}, nil},
		// https://github.com/kubernetes/kubernetes/issues/44724 (verbatim):
		// syslog (journald's text) before klog; the deployment controller's
		// "Error syncing deployment KEY: ERR" at V(2) info.
		{"syslog before klog, Error syncing KIND KEY at info", []string{
			`Apr 20 17:53:18 acme-lvk8s01 kube-controller-manager[912]: I0420 17:53:18.017559     912 deployment_controller.go:298] Error syncing deployment kube-system/monitoring-grafana: Operation cannot be fulfilled on deployments.extensions "monitoring-grafana": the object has been modified; please apply your changes to the latest version and try again`,
		}, []string{
			`kube-system/monitoring-grafana 1 Operation cannot be fulfilled on deployments.extensions "monitoring-grafana"`,
		}, nil},
		// https://github.com/kubernetes/kubernetes/issues/43730 (verbatim):
		// the same, each line behind grep's "FILE:LINE: " (a search over
		// saved logs pasted as it printed).
		{"grep's FILE:LINE: before syslog before klog", []string{
			`~/Downloads/kube-controller-manager (1).txt:12875: Mar 28 01:41:35 kubemaster0 kube-controller-manager[62486]: I0328 01:41:35.692987   62486 deployment_controller.go:313] Finished syncing deployment "test5/frontend" (31.029018ms)`,
			`~/Downloads/kube-controller-manager (1).txt:12876: Mar 28 01:41:35 kubemaster0 kube-controller-manager[62486]: I0328 01:41:35.692999   62486 deployment_controller.go:298] Error syncing deployment test5/frontend: Operation cannot be fulfilled on deployments.extensions "frontend": the object has been modified; please apply your changes to the latest version and try again`,
		}, []string{
			`test5/frontend 1 Operation cannot be fulfilled on deployments.extensions "frontend"`,
		}, nil},
		// https://github.com/deckhouse/deckhouse/issues/8625 (verbatim):
		// leader election's retries name a namespace/name and an error, but
		// no work-queue key: not read.
		{"negative: leader election's lock, a namespace/name and an error", []string{
			`E0605 10:26:07.702918       1 leaderelection.go:327] error retrieving resource lock kube-system/kube-controller-manager: Get "https://10.100.0.10:6443/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager?timeout=5s": net/http: request canceled (Client.Timeout exceeded while awaiting headers)`,
			`E0605 10:26:15.178793       1 leaderelection.go:327] error retrieving resource lock kube-system/kube-controller-manager: Get "https://10.100.0.10:6443/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager?timeout=5s": net/http: request canceled (Client.Timeout exceeded while awaiting headers)`,
		}, nil, nil},
		// https://github.com/kubernetes/kubernetes/issues/99397 (verbatim,
		// the struct literal elided by its reporter): kube-controller-
		// manager's "KEY failed with : ERR" (HandleError of the daemon set
		// controller's processNextWorkItem), no retry word.
		{"KEY failed with : ERR", []string{
			`E0224 11:45:58.101426       1 daemon_controller.go:320] kube-system/antrea-agent failed with : error storing status for daemon set &v1.DaemonSet{...} :Operation cannot be fulfilled on daemonsets.apps "antrea-agent": the object has been modified; please apply your changes to the latest version and try again`,
			`E0224 11:46:43.871336       1 daemon_controller.go:320] kube-system/antrea-agent failed with : error storing status for daemon set &v1.DaemonSet{...} :Operation cannot be fulfilled on daemonsets.apps "antrea-agent": the object has been modified; please apply your changes to the latest version and try again`,
			`E0224 11:46:43.906964       1 daemon_controller.go:320] kube-system/antrea-agent failed with : error storing status for daemon set &v1.DaemonSet{...} :Operation cannot be fulfilled on daemonsets.apps "antrea-agent": the object has been modified; please apply your changes to the latest version and try again`,
		}, []string{
			`kube-system/antrea-agent 3 error storing status for daemon set`,
		}, nil},
		// Near misses of "KEY failed with : ERR" (the line above, changed
		// where said): at info level, no error field (a candidate, not
		// read alone); the key not the message's first word (a pod's
		// exit); no colon before the error (a job's reason, no error).
		{"negative: KEY failed with : ERR at info", []string{
			`I0224 11:45:58.101426       1 daemon_controller.go:320] kube-system/antrea-agent failed with : error storing status for daemon set &v1.DaemonSet{...} :Operation cannot be fulfilled on daemonsets.apps "antrea-agent": the object has been modified; please apply your changes to the latest version and try again`,
		}, nil, nil},
		{"negative: failed with, the key not first", []string{
			`E0224 11:45:58.101426       1 pod_workers.go:320] pod kube-system/antrea-agent-x7k2 failed with : exit code 1`,
		}, nil, nil},
		{"negative: KEY failed with a reason, no colon", []string{
			`E0224 11:45:58.101426       1 job_controller.go:320] team-a/migrate failed with BackoffLimitExceeded`,
		}, nil, nil},
		// https://github.com/zalando/postgres-operator/issues/1392
		// (verbatim, the two lines of one attempt): logrus, the key only
		// in a field (cluster-name=ns/x), the inner cause at warning
		// ("error while syncing cluster state: …"), then the handler's
		// "could not sync cluster: …" at error: one failure.
		{"logrus, the key only in a field, two lines per attempt", []string{
			`time="2021-03-02T11:25:58Z" level=warning msg="error while syncing cluster state: could not sync statefulsets: could not recreate pods: postpone pod recreation until next Sync: recreation is unsafe because pods are being initialized" cluster-name=nts-dev-ocp-install-neelasha1/postgres-operator-cluster pkg=cluster`,
			`time="2021-03-02T11:25:58Z" level=error msg="could not sync cluster: could not sync statefulsets: could not recreate pods: postpone pod recreation until next Sync: recreation is unsafe because pods are being initialized" cluster-name=nts-dev-ocp-install-neelasha1/postgres-operator-cluster pkg=controller worker=0`,
		}, []string{
			`nts-dev-ocp-install-neelasha1/postgres-operator-cluster 1 could not sync statefulsets`,
		}, nil},
		// https://github.com/zalando/postgres-operator/issues/59
		// (verbatim): "could not sync" with the key quoted in the message;
		// the info line before it names only a bare cluster name.
		{"could not sync 'KEY': ERR, logrus", []string{
			`time="2017-07-12T07:35:37Z" level=info msg="Recreating master pod '/'" cluster-name=team-example pkg=cluster worker=2`,
			`time="2017-07-12T07:35:37Z" level=error msg="could not sync cluster 'default/team-example': could not sync statefulsets: could not recreate pods: could not recreate master pod '/': could not delete pod: resource name may not be empty" pkg=controller worker=2`,
		}, []string{
			`default/team-example 1 could not sync statefulsets`,
		}, nil},
		// https://github.com/kserve/kserve/issues/2698 (verbatim): knative's
		// handleErr, JSON with "severity" and "message", the key only in
		// the knative.dev/key field.
		{"knative JSON, the key only in a field", []string{
			`{"severity":"ERROR","timestamp":"2023-02-17T12:23:06.314986042Z","logger":"controller","caller":"controller/controller.go:566","message":"Reconcile error","commit":"3928479","knative.dev/pod":"controller-5c7746b887-hcggz","knative.dev/controller":"knative.dev.serving.pkg.reconciler.labeler.Reconciler","knative.dev/kind":"serving.knative.dev.Route","knative.dev/traceid":"ac6460f8-086c-4b0c-9661-52db4df35b08","knative.dev/key":"kserve/sklearn-iris-predictor-default","duration":"46.047162ms","error":"failed to set finalizers: Operation cannot be fulfilled on routes.serving.knative.dev \"sklearn-iris-predictor-default\": the object has been modified; please apply your changes to the latest version and try again","stacktrace":"knative.dev/pkg/controller.(*Impl).handleErr\n\tknative.dev/pkg@v0.0.0-20221123011842-b78020c16606/controller/controller.go:566\nknative.dev/pkg/controller.(*Impl).processNextWorkItem\n\tknative.dev/pkg@v0.0.0-20221123011842-b78020c16606/controller/controller.go:543\nknative.dev/pkg/controller.(*Impl).RunContext.func3\n\tknative.dev/pkg@v0.0.0-20221123011842-b78020c16606/controller/controller.go:491"}`,
		}, []string{
			`kserve/sklearn-iris-predictor-default 1 failed to set finalizers`,
		}, nil},
		// https://github.com/knative/eventing/issues/1353 (verbatim, the
		// stack trace's literal newline kept as its own line): an error
		// logged while the reconcile returns nil (the key is gone), then
		// "Reconcile succeeded" for the same key: no failure.
		{"negative: an error logged while the reconcile returns nil", []string{
			`{"level":"error","ts":"2019-06-05T14:52:50.871Z","logger":"controller.subscription-controller","caller":"subscription/subscription.go:99","msg":"subscription key in work queue no longer exists","knative.dev/controller":"subscription-controller","knative.dev/traceid":"ff7b31bb-1d4b-4c40-b0ba-f2a3cccaa5d3","knative.dev/key":"default/default-my-service-trigger-vknvc","stacktrace":"github.com/knative/eventing/pkg/reconciler/subscription.(*Reconciler).Reconcile\n\t/Users/villardl/Projects/go/src/github.com/knative/eventing/pkg/reconciler/subscription/subscription.go:99\ngithub.com/knative/eventing/vendor/github.com/knative/pkg/controller.(*Impl).processNextWorkItem\n\t/Users/villardl/Projects/go/src/github.com/knative/eventing/vendor/github.com/knative/pkg/controller/controller.go:329\ngithub.com/knative/eventing/vendor/github.com/knative/pkg/controller.(*Impl).Run.func1\n\t/Users/villardl/Projects/go/src/github.com/knative/eventing/vendor/github.com/knative/pkg/controller/controller.go:281`,
			`"}`,
			`{"level":"info","ts":"2019-06-05T14:52:50.871Z","logger":"controller.subscription-controller","caller":"controller/controller.go:338","msg":"Reconcile succeeded. Time taken: 72.572µs.","knative.dev/controller":"subscription-controller","knative.dev/traceid":"ff7b31bb-1d4b-4c40-b0ba-f2a3cccaa5d3","knative.dev/key":"default/default-my-service-trigger-vknvc"}`,
		}, nil, nil},
		// https://github.com/buildpacks-community/kpack/issues/101
		// (verbatim): zap console with a caller and no logger name; the
		// failure names no key: not read (no key to give it to).
		{"negative: zap console, caller only, a failure naming no key", []string{
			"2019-08-26T00:15:43.506Z\tERROR\tcontroller/controller.go:345\tReconcile error\t{\"error\": \"resource name may not be empty\"}",
			"github.com/pivotal/kpack/vendor/github.com/knative/pkg/controller.(*Impl).handleErr",
			"\t/layers/org.cloudfoundry.dep/packages/src/github.com/pivotal/kpack/vendor/github.com/knative/pkg/controller/controller.go:345",
		}, nil, nil},
		// https://github.com/k0sproject/k0s/issues/1633 (verbatim): a
		// kubelet klog line inside k0s's logrus; the kubelet's pod sync
		// says it is skipping, no work-queue retry: not read.
		{"negative: klog inside logrus, the kubelet's Error syncing pod, skipping", []string{
			`time="2022-04-04 16:48:55" level=info msg="E0404 16:48:55.414065     227 pod_workers.go:949] \"Error syncing pod, skipping\" err=\"failed to \\\"CreatePodSandbox\\\" for \\\"kube-router-dhwr8_kube-system(62d1311e-bd77-4647-96f1-61d1e8ff98a2)\\\" with CreatePodSandboxError: \\\"Failed to create sandbox for pod \\\\\\\"kube-router-dhwr8_kube-system(62d1311e-bd77-4647-96f1-61d1e8ff98a2)\\\\\\\": rpc error: code = Unknown desc = failed to start sandbox container task \\\\\\\"06bb44e30679ce3c6f736113410056b2571d18e9fcb03f1c1722c9f57b9b6970\\\\\\\": ttrpc: closed: unknown\\\"\" pod=\"kube-system/kube-router-dhwr8\" podUID=62d1311e-bd77-4647-96f1-61d1e8ff98a2" component=kubelet`,
		}, nil, nil},
		// https://github.com/rancher/rke2/issues/4775 (verbatim): logrus
		// in journald, a timed poll every 20s that says "retrying" at info
		// with no error and no key: not read.
		{"negative: a timed poll in logrus behind journald", []string{
			`Sep 21 16:05:17 kub-a6.priv.cerit-sc.cz rke2[7220]: time="2023-09-21T16:05:17+02:00" level=info msg="Pod for etcd not synced (no current running pod found), retrying"`,
			`Sep 21 16:05:37 kub-a6.priv.cerit-sc.cz rke2[7220]: time="2023-09-21T16:05:37+02:00" level=info msg="Pod for etcd not synced (no current running pod found), retrying"`,
			`Sep 21 16:05:57 kub-a6.priv.cerit-sc.cz rke2[7220]: time="2023-09-21T16:05:57+02:00" level=info msg="Pod for etcd not synced (no current running pod found), retrying"`,
			`Sep 21 16:06:17 kub-a6.priv.cerit-sc.cz rke2[7220]: time="2023-09-21T16:06:17+02:00" level=info msg="Pod for etcd is synced"`,
			`Sep 21 16:06:17 kub-a6.priv.cerit-sc.cz rke2[7220]: time="2023-09-21T16:06:17+02:00" level=info msg="Pod for kube-apiserver not synced (no current running pod found), retrying"`,
			`Sep 21 16:06:37 kub-a6.priv.cerit-sc.cz rke2[7220]: time="2023-09-21T16:06:37+02:00" level=info msg="Pod for etcd not synced (no current running pod found), retrying"`,
			`Sep 21 16:06:57 kub-a6.priv.cerit-sc.cz rke2[7220]: time="2023-09-21T16:06:57+02:00" level=info msg="Pod for etcd not synced (no current running pod found), retrying"`,
			`Sep 21 16:07:17 kub-a6.priv.cerit-sc.cz rke2[7220]: time="2023-09-21T16:07:17+02:00" level=info msg="Pod for etcd not synced (no current running pod found), retrying"`,
		}, nil, nil},
		// https://github.com/traefik/traefik/issues/11579 (verbatim, its
		// whole lines): zerolog's console, another verb ("Error while
		// updating … status") with no retry word, the key in fields: an
		// attempt's inner cause at most, not read alone (Traefik's provider
		// updates status on each reload, no work queue).
		{"negative: another verb with no retry word, the key in fields", []string{
			`2025-02-28T09:59:32Z ERR Error while updating ingress status error="failed to update ingress status logging/kibana: Operation cannot be fulfilled on ingresses.networking.k8s.io \"kibana\": the object has been modified; please apply your changes to the latest version and try again" ingress=kibana namespace=logging providerName=kubernetes`,
			`2025-02-28T09:59:32Z ERR Error while updating ingress status error="failed to update ingress status logging/kibana: Operation cannot be fulfilled on ingresses.networking.k8s.io \"kibana\": the object has been modified; please apply your changes to the latest version and try again" ingress=kibana namespace=logging providerName=kubernetes`,
			`2025-02-28T09:59:32Z INF Updated ingress status ingress=kibana namespace=logging`,
			`2025-02-28T09:59:33Z ERR Error while updating ingress status error="failed to update ingress status logging/kibana: Operation cannot be fulfilled on ingresses.networking.k8s.io \"kibana\": the object has been modified; please apply your changes to the latest version and try again" ingress=kibana namespace=logging providerName=kubernetes`,
		}, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) { checkShape42(t, tt) })
	}
}

// checkShape42 reads tt's lines into a store, as a saved file is read, and
// compares every key it holds with tt.want.
func checkShape42(t *testing.T, tt shape42) {
	t.Helper()
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})
	if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(tt.lines, "\n")+"\n")); err != nil {
		t.Fatal(err)
	}
	_, keys := s.views("")
	var got []string
	for _, k := range keys {
		if n, ok := tt.streak[k.Key]; ok && k.Failures != n {
			t.Errorf("%s: streak %d, want %d (the stated count)", k.Key, k.Failures, n)
		}
		last := ""
		if k.LastError != nil {
			last = k.LastError.Message
		}
		got = append(got, fmt.Sprintf("%s %d %s", k.Key, k.TotalFailures, last))
	}
	if len(got) != len(tt.want) {
		t.Fatalf("read %d keys, want %d:\n got %q\nwant %q", len(got), len(tt.want), got, tt.want)
	}
	for _, w := range tt.want {
		found := false
		for _, g := range got {
			if strings.HasPrefix(g, w) {
				found = true
			}
		}
		if !found {
			t.Errorf("no key reads %q; got %q", w, got)
		}
	}
}
