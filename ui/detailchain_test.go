package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// TestDetailSaysTheBlocker: the key detail of an object not Current walks
// its chain (Options.Chain, named by the controller's kind and the object
// read) and says what it waits for, under the object's verdict; the walk is
// not asked again before detailChainEvery; an object that is Current asks
// for none.
func TestDetailSaysTheBlocker(t *testing.T) {
	var walked []objwhy.Object
	quota := `ReplicaFailure=True (FailedCreate): pods "naive-00001-7d9f-" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2`
	walk := func(_ context.Context, o objwhy.Object) (*objwhy.Chain, error) {
		walked = append(walked, o)
		rs := &objwhy.Node{Object: objwhy.Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "demo", Name: "naive-00001-7d9f"}, Status: objwhy.InProgress, Blocker: true, Line: quota}
		return &objwhy.Chain{Root: &objwhy.Node{Object: objwhy.Object{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name}, Status: objwhy.InProgress, Below: []*objwhy.Node{rs}}}, nil
	}
	m := loaded(t, 120, 60)
	m.c.Opts.Chain = walk
	m.pushView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: "demo/naive-00001"})
	d := fixedDetail()
	ctl := *d.Controller
	ctl.Kind = &api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	d.Controller = &ctl
	m = send(t, m, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: d, FetchedAt: t0})
	if s := screen(m); strings.Contains(s, "Waits for") {
		t.Fatalf("a blocker line before any walk:\n%s", s)
	}

	cmd := m.onDetail((*view.Detail).WalkChain)
	if cmd == nil {
		t.Fatal("the detail of an object not Current asked for no chain")
	}
	read, _ := cmd().(view.ReadMsg)
	m = send(t, m, read.Msg)
	if want := (objwhy.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "demo", Name: "naive-00001"}); len(walked) != 1 || walked[0] != want {
		t.Errorf("walked %+v, want %+v", walked, want)
	}
	s := screen(m)
	want := "Waits for replicaset.apps/naive-00001-7d9f: ReplicaFailure=True (FailedCreate)"
	v, w := strings.Index(s, "Object: not ready yet (InProgress)"), strings.Index(s, want)
	if w < 0 || v < 0 || w < v || !strings.Contains(s, "limited: pods=2") {
		t.Errorf("want %q under the verdict, the quota message whole:\n%s", want, s)
	}
	if cmd := m.onDetail((*view.Detail).WalkChain); cmd != nil {
		t.Errorf("walked again within 10s")
	}

	// Current: no walk, no line.
	d = fixedDetail()
	d.Controller = &ctl
	cur := *d.Object
	cur.Verdict.Status = "Current"
	d.Object = &cur
	m.setView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: "demo/naive-00001"})
	m = send(t, m, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: d, FetchedAt: t0})
	if cmd := m.onDetail((*view.Detail).WalkChain); cmd != nil || strings.Contains(screen(m), "Waits for") {
		t.Errorf("a Current object's detail walks its chain or says a blocker")
	}
}
