package view

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The key detail's blocker line: when the object behind the key is not
// Current, what its chain says it waits for ("Waits for replicaset.apps/
// web-1: ReplicaFailure=True …"), as `why` would answer. The walk lists
// kinds of the object's namespace, so it is read at most once per
// detailChainEvery, not on every refresh of the key.

// detailChainEvery is how often the detail walks the object's chain again.
const detailChainEvery = 10 * time.Second

// detailChainTimeout bounds one walk.
const detailChainTimeout = 20 * time.Second

// DetailChainMsg carries the chain of the object behind the key.
type DetailChainMsg struct {
	controller, key string
	chain           *objwhy.Chain
	err             error
	at              time.Time
}

// chainObject is the object behind the key as the chain names it: its kind
// from the controller (the endpoint names it), its name from the read; ok
// is false when either is not known, or the object is Current.
func (d *Detail) chainObject() (objwhy.Object, bool) {
	if d.Data == nil || d.Data.Object == nil || d.Data.Controller == nil || d.Data.Controller.Kind == nil {
		return objwhy.Object{}, false
	}
	o, k := d.Data.Object, d.Data.Controller.Kind
	if o.Verdict.Status == "" || o.Verdict.Status == objstatus.Current {
		return objwhy.Object{}, false
	}
	apiVersion := k.Version
	if k.Group != "" {
		apiVersion = k.Group + "/" + k.Version
	}
	return objwhy.Object{APIVersion: apiVersion, Kind: k.Kind, Namespace: o.Namespace, Name: o.Name}, true
}

// WalkChain asks for the object's chain when it is due; nil when not, or
// when the UI has no Options.Chain.
func (d *Detail) WalkChain() tea.Cmd {
	walk := d.C.Opts.Chain
	o, ok := d.chainObject()
	if walk == nil || !ok || d.chainAsking || (!d.chainAt.IsZero() && d.C.Now().Sub(d.chainAt) < detailChainEvery) {
		return nil
	}
	d.chainAsking, d.chainAt = true, d.C.Now()
	ctx, controller, key, clock := d.C.Conn.Ctx, d.Controller, d.Key, d.C.Opts.Clock
	return d.C.Stamp(func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, detailChainTimeout)
		defer cancel()
		c, err := walk(ctx, o)
		return DetailChainMsg{controller: controller, key: key, chain: c, err: err, at: clock()}
	})
}

// chainReceived takes a walk in, escaped for the screen; a failed walk
// keeps the last chain (the line is a hint, not the answer).
func (d Detail) ChainReceived(msg DetailChainMsg) Detail {
	if msg.controller != d.Controller || msg.key != d.Key {
		return d
	}
	d.chainAsking = false
	if msg.err == nil && msg.chain != nil {
		c, _ := widget.DeepCopy(msg.chain)
		widget.PrintableFields(c)
		d.chain = c
	}
	return d
}

// blockerLines is the blocker line, wrapped; none when the chain shows
// no other object blocking, or the object is Current now.
func (d *Detail) blockerLines() []string {
	if _, ok := d.chainObject(); !ok {
		return nil
	}
	b, more := d.chain.Blocker()
	if b == nil {
		return nil
	}
	s := &d.C.Styles
	lines := text.WrapIndent("Waits for "+b.Object.Ref()+": "+b.Said()+objwhy.MoreBlockers(more), d.C.Width, proseIndent)
	lines[0] = s.Label.Render("Waits for ") + strings.TrimPrefix(lines[0], "Waits for ")
	return lines
}
