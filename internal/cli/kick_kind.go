package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/kick"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// The kind of the objects behind kick's keys: --kind, or each key's
// controller's, found among the controllers that have the key.

// targets are the objects behind o.keys: their kind is --kind, else that
// of the controller that tracks each key (--controller, or the one of the
// endpoint's or log's controllers that has it).
func (o *KickOptions) targets(ctx context.Context, k *kick.Kicker) ([]kick.Target, error) {
	targets := make([]kick.Target, len(o.keys))
	if o.Kind != "" {
		for i, key := range o.keys {
			targets[i] = kick.Target{Kind: schema.ParseGroupKind(o.Kind), Key: key}
		}
		return targets, nil
	}
	s, _, err := o.fromLogs.open(ctx, &o.attachOptions, o.IOStreams, false)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return kickTargets(ctx, k, s, o.Controller, o.keys, kickAsFlags)
}

// kickWords are how kickTargets' errors name what the asker can give: the
// command's flags, or the MCP tool's input and the command for the rest.
type kickWords struct {
	controller string // what names the controller: --controller, or the tool's input
	kind       string // what gives a kind, before "--kind KIND.GROUP"
}

var (
	kickAsFlags = kickWords{controller: "--controller", kind: "give"}
	kickAsTool  = kickWords{controller: "controller", kind: "kick them with kubectl backoff kick"}
)

// kickTargets are the objects behind keys on s, each of the kind of its
// controller: controller when named, else the one of s's controllers that
// has the key. The CLI's kick and the MCP server's share it, each saying
// what the asker can give in its words (w).
func kickTargets(ctx context.Context, k *kick.Kicker, s *inspector.Session, controller string, keys []string, w kickWords) ([]kick.Target, error) {
	targets := make([]kick.Target, len(keys))
	ov, err := s.Overview(ctx)
	if err != nil {
		return nil, err
	}
	var named *api.Controller
	if controller != "" {
		if named, err = namedController(ov, controller, w.controller); err != nil {
			return nil, err
		}
	}
	for i, key := range keys {
		c := named
		if c == nil {
			name, err := s.FindKey(ctx, key)
			if amb, ok := errors.AsType[*inspector.AmbiguousKeyError](err); ok {
				return nil, fmt.Errorf("%w: name one with %s, or %s --kind", amb, w.controller, w.kind)
			}
			if err != nil {
				return nil, fmt.Errorf("%w; or %s --kind KIND.GROUP", err, w.kind)
			}
			if c = ov.Controller(name); c == nil {
				return nil, fmt.Errorf("key %q: controller %q is not among %s", key, name, controllerNames(ov))
			}
		}
		if ov.Source.Logged() {
			// A log names every key it read: one it never names is a typo
			// or another log's, whatever the cluster holds.
			if err := inLog(ctx, s, c.Name, key); err != nil {
				return nil, err
			}
		}
		gk, err := kindOf(ctx, k, ov, c, key, w)
		if err != nil {
			return nil, err
		}
		targets[i] = kick.Target{Kind: gk, Key: key}
	}
	return targets, nil
}

// kindOf is the kind of the object behind key of controller c: the one it
// says (the instrument's Kind, a log's controllerKind), or, for kube-
// controller-manager's controllers read from their log, the one their
// name and source tell, asking the cluster when two could be meant.
func kindOf(ctx context.Context, k *kick.Kicker, ov *inspector.Overview, c *api.Controller, key string, w kickWords) (schema.GroupKind, error) {
	if c.Kind != nil && c.Kind.Kind != "" {
		return schema.GroupKind{Group: c.Kind.Group, Kind: c.Kind.Kind}, nil
	}
	kinds, deaf, ok := kick.KCMKinds(c.Name)
	if !ok || !ov.Source.Logged() {
		return schema.GroupKind{}, fmt.Errorf("controller %q does not say which kind it reconciles: %s --kind KIND.GROUP", c.Name, w.kind)
	}
	if deaf != "" {
		return schema.GroupKind{}, fmt.Errorf("kube-controller-manager's %s would not retry %s sooner for a kick: %s", c.Name, key, deaf)
	}
	if len(kinds) == 1 {
		return kinds[0], nil
	}
	found, err := k.Resolve(ctx, kinds, key)
	switch {
	case err != nil:
		return schema.GroupKind{}, fmt.Errorf("key %s of %s is a %s; asking the cluster which failed: %w; %s %s", key, c.Name, orKinds(kinds), err, w.kind, kindFlags(kinds))
	case len(found) == 1:
		return found[0], nil
	case len(found) == 0:
		return schema.GroupKind{}, fmt.Errorf("key %s of %s: the cluster has no %s so named (deleted since?)", key, c.Name, orKinds(kinds))
	}
	return schema.GroupKind{}, fmt.Errorf("key %s of %s: the cluster has a %s so named, and the log does not say which failed: %s %s",
		key, c.Name, andKinds(found), w.kind, kindFlags(found))
}

func kindNames(kinds []schema.GroupKind) []string {
	out := make([]string, len(kinds))
	for i, gk := range kinds {
		out[i] = gk.String()
	}
	return out
}

func orKinds(kinds []schema.GroupKind) string { return orWords(kindNames(kinds)) }

func andKinds(kinds []schema.GroupKind) string {
	s := kindNames(kinds)
	return strings.Join(s[:len(s)-1], ", ") + " and a " + s[len(s)-1]
}

// kindFlags is "--kind A or --kind B".
func kindFlags(kinds []schema.GroupKind) string {
	s := kindNames(kinds)
	for i := range s {
		s[i] = "--kind " + s[i]
	}
	return orWords(s)
}

// inLog says key is not in the log read by s when controller's keys do not
// have it, naming some that are and how to list them all.
func inLog(ctx context.Context, s *inspector.Session, controller, key string) error {
	_, err := s.Key(ctx, controller, key)
	if ae, ok := errors.AsType[*inspector.APIError](err); !ok || ae.Code != http.StatusNotFound {
		return nil // found, or not known: kick's own steps say what fails
	}
	msg := fmt.Sprintf("key %q is not in the log: no line of controller %s names it", key, controller)
	if l, err := s.Keys(ctx, inspector.KeyQuery{Controller: controller, Sort: api.SortKey, Limit: maxNamedKeys + 1}); err == nil && len(l.Items) > 0 {
		names := make([]string, 0, maxNamedKeys)
		for _, k := range l.Items[:min(len(l.Items), maxNamedKeys)] {
			names = append(names, text.Printable(k.Key.Key))
		}
		more := ""
		if len(l.Items) > maxNamedKeys {
			more = ", …"
		}
		msg += fmt.Sprintf(" (its keys: %s%s)", strings.Join(names, ", "), more)
	}
	return errors.New(msg + "; list the log's keys with: kubectl backoff get --from-logs LOG")
}

// maxNamedKeys bounds the keys inLog names: a hint, not a listing.
const maxNamedKeys = 3
