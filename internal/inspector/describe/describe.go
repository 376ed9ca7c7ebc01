package describe

import (
	"context"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// fleetSample is how many keys (soonest retries first) describe reads to
// judge fleet-wide anti-patterns.
const fleetSample = 1000

// Description is everything known about one key, with its diagnosis.
type Description struct {
	Key        *inspector.PodKeyDetail `json:"key"`
	Controller *api.Controller         `json:"controller,omitempty"`
	// Source is the list's source (v1/controllers' source, merged over the
	// replicas): nil for an instrumented process.
	Source *api.ListSource `json:"source,omitempty"`
	// Object is the object behind the key; ObjectErr says why it is missing.
	Object      *objstatus.Object `json:"object,omitempty"`
	ObjectErr   error             `json:"-"`
	ObjectError string            `json:"objectError,omitempty"`
	Diagnosis   explain.Diagnosis `json:"diagnosis"`
	// Fleet is what Diagnosis was judged with, so that a viewer can run
	// Explain again at a later time (the UI's countdowns move between
	// reads). Not in the JSON: the diagnosis already says what it found.
	Fleet *explain.FleetStats `json:"-"`
}

// Describe reads a key, its controller, the soonest retries of its
// controller and — when objects is non-nil and the controller names its kind —
// the object behind it, and explains the lot.
//
// Without a controller, the key is looked up in every controller
// (Session.FindKey).
func Describe(ctx context.Context, s *inspector.Session, controller, key string, objects *ObjectReader) (*Description, error) {
	if controller == "" {
		c, err := s.FindKey(ctx, key)
		if err != nil {
			return nil, err
		}
		controller = c
	}
	k, err := s.Key(ctx, controller, key)
	if err != nil {
		return nil, err
	}
	d := &Description{Key: k}
	if ov, err := s.Overview(ctx); err == nil {
		d.Controller, d.Source = ov.Controller(k.Controller), ov.Source
	}
	var fleet *explain.FleetStats
	if l, err := s.Keys(ctx, inspector.KeyQuery{Controller: k.Controller, Sort: api.SortNext, Limit: fleetSample}); err == nil {
		keys := make([]api.Key, len(l.Items))
		for i := range l.Items {
			keys[i] = l.Items[i].Key
		}
		f := explain.Fleet(keys, k.ServerTime)
		fleet = &f
	}
	if objects != nil && d.Controller != nil && d.Controller.Kind != nil {
		d.Object, d.ObjectErr = objects.Read(ctx, *d.Controller.Kind, k.Key.Key)
		if d.ObjectErr != nil {
			d.ObjectError = d.ObjectErr.Error()
		}
		if d.Object != nil {
			// The controller's word on the key, by why's rule: a ConfigMap
			// with 14 failures is not Current here either.
			from := "its endpoint"
			if d.Source != nil && d.Source.Kind == api.SourceLogs {
				from = "its log"
			}
			d.Object.Verdict.JudgeKey(d.Controller.Kind.Kind, explain.KeyWord(k.KeyDetail.Key, d.Source, k.Controller, from))
		}
	}
	d.Fleet = fleet
	d.Diagnosis = explain.Explain(explain.Input{Key: k.KeyDetail.Key, Controller: d.Controller, Source: d.Source, Object: d.Object, Fleet: fleet, Now: k.ServerTime})
	return d, nil
}
