package ui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
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

// detailChainMsg carries the chain of the object behind the key.
type detailChainMsg struct {
	controller, key string
	chain           *objwhy.Chain
	err             error
	at              time.Time
}

// chainObject is the object behind the key as the chain names it: its kind
// from the controller (the endpoint names it), its name from the read; ok
// is false when either is not known, or the object is Current.
func (d *detailModel) chainObject() (objwhy.Object, bool) {
	if d.data == nil || d.data.Object == nil || d.data.Controller == nil || d.data.Controller.Kind == nil {
		return objwhy.Object{}, false
	}
	o, k := d.data.Object, d.data.Controller.Kind
	if o.Verdict.Status == "" || o.Verdict.Status == objstatus.Current {
		return objwhy.Object{}, false
	}
	apiVersion := k.Version
	if k.Group != "" {
		apiVersion = k.Group + "/" + k.Version
	}
	return objwhy.Object{APIVersion: apiVersion, Kind: k.Kind, Namespace: o.Namespace, Name: o.Name}, true
}

// walkChain asks for the object's chain when it is due; nil when not, or
// when the UI has no Options.Chain.
func (d *detailModel) walkChain() tea.Cmd {
	walk := d.c.opts.Chain
	o, ok := d.chainObject()
	if walk == nil || !ok || d.chainAsking || (!d.chainAt.IsZero() && d.c.now().Sub(d.chainAt) < detailChainEvery) {
		return nil
	}
	d.chainAsking, d.chainAt = true, d.c.now()
	ctx, controller, key, clock := d.c.conn.ctx, d.controller, d.key, d.c.opts.Clock
	return d.c.stamp(func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, detailChainTimeout)
		defer cancel()
		c, err := walk(ctx, o)
		return detailChainMsg{controller: controller, key: key, chain: c, err: err, at: clock()}
	})
}

// chainReceived takes a walk in, escaped for the screen; a failed walk
// keeps the last chain (the line is a hint, not the answer).
func (d detailModel) chainReceived(msg detailChainMsg) detailModel {
	if msg.controller != d.controller || msg.key != d.key {
		return d
	}
	d.chainAsking = false
	if msg.err == nil && msg.chain != nil {
		c, _ := deepCopy(msg.chain)
		printableFields(c)
		d.chain = c
	}
	return d
}

// blockerLines is the blocker line, wrapped; none when the chain shows
// no other object blocking, or the object is Current now.
func (d *detailModel) blockerLines() []string {
	if _, ok := d.chainObject(); !ok {
		return nil
	}
	b, more := d.chain.Blocker()
	if b == nil {
		return nil
	}
	s := &d.c.styles
	lines := wrapIndent("Waits for "+b.Object.Ref()+": "+b.Said()+objwhy.MoreBlockers(more), d.c.width, proseIndent)
	lines[0] = s.label.Render("Waits for ") + strings.TrimPrefix(lines[0], "Waits for ")
	return lines
}
