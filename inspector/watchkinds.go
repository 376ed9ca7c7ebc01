package inspector

import (
	"errors"
	"net/url"
	"slices"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// watchKind is what differs between the mirrors of the three watched
// endpoints: the endpoint, and how a PAGE or a CHANGE applies to the page
// held. The stream, its resumption and its position are Watch's, alike.
type watchKind[L any] struct {
	endpoint string
	apply    func(page *L, ev *api.WatchEvent) error
	clone    func(L) L
	setTime  func(*L, time.Time)
}

var keysKind = &watchKind[api.KeyList]{
	endpoint: api.WatchKeys,
	apply: func(p *api.KeyList, ev *api.WatchEvent) error {
		if ev.Type == api.WatchPage {
			if ev.Page == nil {
				return errors.New("watch: a PAGE without its page")
			}
			*p = *ev.Page
			return nil
		}
		p.Total, p.Matched = ev.Total, ev.Matched
		p.Items = applyChange(p.Items, ev.Changed, ev, func(k *api.Key) api.KeyRef { return api.KeyRef{Controller: k.Controller, Key: k.Key} })
		return nil
	},
	clone:   func(l api.KeyList) api.KeyList { l.Items = slices.Clone(l.Items); return l },
	setTime: func(l *api.KeyList, t time.Time) { l.ServerTime = t },
}

var errorsKind = &watchKind[api.ErrorGroupList]{
	endpoint: api.WatchErrors,
	apply: func(p *api.ErrorGroupList, ev *api.WatchEvent) error {
		if ev.Type == api.WatchPage {
			if ev.ErrorPage == nil {
				return errors.New("watch: a PAGE without its errorPage")
			}
			*p = *ev.ErrorPage
			return nil
		}
		p.Total, p.Matched = ev.Total, ev.Matched
		p.Groups = applyChange(p.Groups, ev.ChangedGroups, ev, func(g *api.ErrorGroup) api.KeyRef {
			return api.KeyRef{Controller: g.Controller, Fingerprint: g.Fingerprint}
		})
		return nil
	},
	clone:   func(l api.ErrorGroupList) api.ErrorGroupList { l.Groups = slices.Clone(l.Groups); return l },
	setTime: func(l *api.ErrorGroupList, t time.Time) { l.ServerTime = t },
}

var controllersKind = &watchKind[api.ControllerList]{
	endpoint: api.WatchControllers,
	apply: func(p *api.ControllerList, ev *api.WatchEvent) error {
		if ev.Type == api.WatchPage {
			if ev.ControllerPage == nil {
				return errors.New("watch: a PAGE without its controllerPage")
			}
			*p = *ev.ControllerPage
			return nil
		}
		p.Controllers = applyChange(p.Controllers, ev.ChangedControllers, ev, func(c *api.Controller) api.KeyRef { return api.KeyRef{Controller: c.Name} })
		if ev.Source != nil {
			p.Source = ev.Source
		}
		return nil
	},
	clone: func(l api.ControllerList) api.ControllerList {
		l.Controllers = slices.Clone(l.Controllers)
		return l
	},
	setTime: func(l *api.ControllerList, t time.Time) { l.ServerTime = t },
}

// applyChange is rows with a CHANGE applied: changed rows replaced or
// added, deleted ones removed, then the order the change gives, if any.
func applyChange[R any](rows, changed []R, ev *api.WatchEvent, ref func(*R) api.KeyRef) []R {
	at := make(map[api.KeyRef]int, len(rows))
	for i := range rows {
		at[ref(&rows[i])] = i
	}
	for i := range changed {
		r := changed[i]
		if j, ok := at[ref(&r)]; ok {
			rows[j] = r
		} else {
			at[ref(&r)] = len(rows)
			rows = append(rows, r)
		}
	}
	gone := make(map[api.KeyRef]bool, len(ev.Deleted))
	for _, d := range ev.Deleted {
		gone[d] = true
	}
	if ev.Order == nil {
		return slices.DeleteFunc(rows, func(r R) bool { return gone[ref(&r)] })
	}
	out := make([]R, 0, len(ev.Order))
	for _, o := range ev.Order {
		if i, ok := at[o]; ok && !gone[o] {
			out = append(out, rows[i])
		}
	}
	return out
}

// errorsValues are v1/errors' parameters for controller and f.
func errorsValues(controller string, f api.Filter) url.Values {
	v := url.Values{}
	if controller != "" {
		v.Set("controller", controller)
	}
	if f.Q != "" {
		v.Set("q", f.Q)
	}
	if f.Error != "" {
		v.Set("error", f.Error)
	}
	for _, s := range f.States {
		v.Add("state", string(s))
	}
	return v
}
