package query

import (
	"context"
	"net/url"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// The three watched endpoints' parts of a watch (watchSpec): each its own
// page, as its list computes it, and what names one of its rows. The hub
// does the rest alike for all.

// keysWatch watches v1/keys: rows are keys, named by controller and key.
func (h *Handler) keysWatch(v url.Values) (watchSpec, error) {
	key, q, names, err := h.keysQuery(v)
	if err != nil {
		return watchSpec{}, err
	}
	return watchSpec{
		key: key, reuse: true,
		compute: func(ctx context.Context) (any, error) { return h.keyPage(ctx, names, q) },
		split: func(list any) pageRows {
			l := list.(*api.KeyList)
			p := pageRows{serverTime: l.ServerTime, total: l.Total, matched: l.Matched,
				refs: make([]api.KeyRef, len(l.Items)), rows: make([]any, len(l.Items))}
			for i := range l.Items {
				k := &l.Items[i]
				p.refs[i], p.rows[i] = api.KeyRef{Controller: k.Controller, Key: k.Key}, k
			}
			return p
		},
		page: func(ev *api.WatchEvent, list any) { ev.Page = list.(*api.KeyList) },
		changed: func(ev *api.WatchEvent, rows []any) {
			for _, r := range rows {
				ev.Changed = append(ev.Changed, *r.(*api.Key))
			}
		},
	}, nil
}

// errorsWatch watches v1/errors: rows are groups, named by controller and
// fingerprint.
func (h *Handler) errorsWatch(v url.Values) (watchSpec, error) {
	controller, m, err := ParseErrors(v, h.opts.States)
	if err != nil {
		return watchSpec{}, err
	}
	names, err := h.selected(controller)
	if err != nil {
		return watchSpec{}, err
	}
	return watchSpec{
		key: "errors?" + v.Encode(), reuse: true,
		compute: func(ctx context.Context) (any, error) { return h.errorGroups(ctx, names, m) },
		split: func(list any) pageRows {
			l := list.(*api.ErrorGroupList)
			p := pageRows{serverTime: l.ServerTime, total: l.Total, matched: l.Matched,
				refs: make([]api.KeyRef, len(l.Groups)), rows: make([]any, len(l.Groups))}
			for i := range l.Groups {
				g := &l.Groups[i]
				p.refs[i], p.rows[i] = api.KeyRef{Controller: g.Controller, Fingerprint: g.Fingerprint}, g
			}
			return p
		},
		page: func(ev *api.WatchEvent, list any) { ev.ErrorPage = list.(*api.ErrorGroupList) },
		changed: func(ev *api.WatchEvent, rows []any) {
			for _, r := range rows {
				ev.ChangedGroups = append(ev.ChangedGroups, *r.(*api.ErrorGroup))
			}
		},
	}, nil
}

// controllersWatch watches v1/controllers: rows are controllers, named by
// name. It takes no parameters, as the list takes none.
func (h *Handler) controllersWatch(v url.Values) (watchSpec, error) {
	if err := CheckParams(v, nil); err != nil {
		return watchSpec{}, err
	}
	return watchSpec{
		key: "controllers", reuse: false,
		compute: h.controllerList,
		split: func(list any) pageRows {
			l := list.(*api.ControllerList)
			p := pageRows{serverTime: l.ServerTime, refs: make([]api.KeyRef, len(l.Controllers)), rows: make([]any, len(l.Controllers))}
			for i := range l.Controllers {
				c := &l.Controllers[i]
				p.refs[i], p.rows[i] = api.KeyRef{Controller: c.Name}, c
			}
			return p
		},
		page: func(ev *api.WatchEvent, list any) { ev.ControllerPage = list.(*api.ControllerList) },
		changed: func(ev *api.WatchEvent, rows []any) {
			for _, r := range rows {
				ev.ChangedControllers = append(ev.ChangedControllers, *r.(*api.Controller))
			}
		},
	}, nil
}
