package inspector

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// KeyNotFoundError says no controller tracks a key.
type KeyNotFoundError struct {
	Key         string
	Controllers []string
	// Named are the tracked keys NAMESPACE/Key, when Key has no namespace:
	// what the user most likely meant (at most maxNamed).
	Named []string
	// Near are tracked keys that contain Key, when none is named so: a
	// key typed in part (a cluster-scoped name cut short, "machines.x"
	// for "machines.x.io"), at most maxNamed.
	Near []string
	// Source names what was read when it has no controllers at all: the
	// endpoint's address, or the log's endpoint ("logs: FILE").
	Source string
	// Log says what was read is a log (v1/controllers' source said so).
	Log bool
}

// noControllers says that nothing tracks any key, and what that means for
// the source read.
func (e *KeyNotFoundError) noControllers() string {
	if e.Log {
		log := strings.TrimPrefix(e.Source, LogSourcePrefix) // the name shown for the endpoint, without its label
		return fmt.Sprintf("no controller tracks key %q: the log %s holds no keys of any controller "+
			"(none of its lines is a reconcile line kubectl backoff reads): is it the controller's log, of the right container?", e.Key, log)
	}
	src := "the endpoint"
	if e.Source != "" {
		src += " at " + e.Source
	}
	return fmt.Sprintf("no controller tracks key %q: %s has no controllers yet (a probe registers when its controller starts)", e.Key, src)
}

// notInLog is why a log may not hold a key: it names only the keys it
// logs a reconcile of.
const notInLog = "not in the log (only keys with a logged reconcile error, or V(5) lines, are known)"

// maxNamed bounds KeyNotFoundError.Named: a hint, not a listing.
const maxNamed = 3

// Error implements error.
func (e *KeyNotFoundError) Error() string {
	if len(e.Controllers) == 0 {
		return e.noControllers()
	}
	msg := fmt.Sprintf("no controller tracks key %q (controllers: %s)", e.Key, strings.Join(e.Controllers, ", "))
	if e.Log {
		// A log holds only the keys it logs: a key that exists but has not
		// failed is as absent as one mistyped, and the reader must know which
		// could be meant (the log store's own 404 says the same).
		msg += ": " + notInLog
	}
	switch {
	case strings.Contains(e.Key, "/"):
	case len(e.Named) > 0:
		// -n selects the pods to attach to; it does not qualify keys.
		msg += fmt.Sprintf("; a namespaced object's key is NAMESPACE/NAME: did you mean %s?", orList(e.Named))
	case len(e.Near) > 0:
		// Not the NAMESPACE/NAME lesson: the keys read show what was meant.
		msg += fmt.Sprintf("; did you mean %s?", orList(e.Near))
	default:
		msg += fmt.Sprintf("; a namespaced object's key is NAMESPACE/NAME, e.g. default/%s", e.Key)
	}
	return msg
}

// orList is "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// KeysNamed lists (at most three of) the tracked keys NAMESPACE/name, in
// controller or in any when it is empty, for a key given without its
// namespace: what the user most likely meant. The filter also matches
// last errors: only keys that end so are kept.
func (s *Session) KeysNamed(ctx context.Context, controller, name string) []string {
	l, err := s.Keys(ctx, KeyQuery{Controller: controller, Q: "~/" + regexp.QuoteMeta(name) + "$", Sort: api.SortKey, Limit: api.MaxLimit})
	if err != nil {
		return nil
	}
	var out []string
	for _, k := range l.Items {
		if strings.HasSuffix(k.Key.Key, "/"+name) && !slices.Contains(out, k.Key.Key) && len(out) < maxNamed {
			out = append(out, k.Key.Key)
		}
	}
	return out
}

// keysContaining lists (at most maxNamed of) the tracked keys in
// controller (or in any, "") that contain text, sorted: the keys meant
// by a key typed in part.
func (s *Session) keysContaining(ctx context.Context, controller, text string) []string {
	l, err := s.Keys(ctx, KeyQuery{Controller: controller, Q: "~" + regexp.QuoteMeta(text), Sort: api.SortKey, Limit: api.MaxLimit})
	if err != nil {
		return nil
	}
	var out []string
	for _, k := range l.Items {
		if strings.Contains(k.Key.Key, text) && !slices.Contains(out, k.Key.Key) && len(out) < maxNamed {
			out = append(out, k.Key.Key)
		}
	}
	return out
}

// notFound is the KeyNotFoundError of key among controllers, with the
// keys the user most likely meant: of that name in a namespace, else that
// contain it.
func (s *Session) notFound(ctx context.Context, key string, controllers []string, log bool) *KeyNotFoundError {
	nf := &KeyNotFoundError{Key: key, Controllers: controllers, Log: log}
	if !strings.Contains(key, "/") {
		nf.Named = s.KeysNamed(ctx, "", key)
		if len(nf.Named) == 0 {
			nf.Near = s.keysContaining(ctx, "", key)
		}
	}
	return nf
}

// AmbiguousKeyError says several controllers track a key: the caller must
// name one.
type AmbiguousKeyError struct {
	Key         string
	Controllers []string
}

// Error implements error.
func (e *AmbiguousKeyError) Error() string {
	return fmt.Sprintf("key %q is tracked by several controllers: %s", e.Key, strings.Join(e.Controllers, ", "))
}

// FindKey returns the controller that tracks key, looking in every
// controller of the session: the only one when there is one, else the one
// that has the key. It fails with a *KeyNotFoundError or an
// *AmbiguousKeyError naming the controllers.
func (s *Session) FindKey(ctx context.Context, key string) (string, error) {
	ov, err := s.Overview(ctx)
	if err != nil {
		return "", err
	}
	if len(ov.Controllers) == 0 {
		names := make([]string, len(s.endpoints))
		for i, e := range s.endpoints {
			names[i] = e.Name
		}
		return "", &KeyNotFoundError{Key: key, Source: strings.Join(names, ", "), Log: ov.Source.Logged()}
	}
	if len(ov.Controllers) == 1 {
		// Its own answer names the key if it lacks it; a key without a
		// namespace is looked up here, to suggest the one meant.
		only := ov.Controllers[0].Name
		if strings.Contains(key, "/") {
			return only, nil
		}
		if _, err := s.Key(ctx, only, key); err != nil && isNotFound(err) {
			return "", s.notFound(ctx, key, []string{only}, ov.Source.Logged())
		}
		return only, nil
	}
	var names, have []string
	var errs []error
	for _, c := range ov.Controllers {
		names = append(names, c.Name)
		_, err := s.Key(ctx, c.Name, key)
		switch {
		case err == nil:
			have = append(have, c.Name)
		case !isNotFound(err):
			errs = append(errs, fmt.Errorf("controller %s: %w", c.Name, err))
		}
	}
	switch {
	case len(have) == 1:
		return have[0], nil
	case len(have) > 1:
		return "", &AmbiguousKeyError{Key: key, Controllers: have}
	case len(errs) > 0:
		return "", errors.Join(errs...)
	}
	return "", s.notFound(ctx, key, names, ov.Source.Logged())
}

// isNotFound reports whether err is the endpoint's 404, from every replica
// that was asked: a replica that failed otherwise may have the key.
func isNotFound(err error) bool {
	switch x := err.(type) {
	case *APIError:
		return x.Code == http.StatusNotFound
	case interface{ Unwrap() []error }:
		errs := x.Unwrap()
		for _, e := range errs {
			if !isNotFound(e) {
				return false
			}
		}
		return len(errs) > 0
	case interface{ Unwrap() error }:
		return isNotFound(x.Unwrap())
	}
	return false
}
