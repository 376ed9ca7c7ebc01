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
// of them. want is "KEY COUNT ERRPREFIX", one per key; none means no key.
type shape42 struct {
	name  string
	lines []string
	want  []string
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
		}},
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
		}},
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
		}},
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
		}},
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
