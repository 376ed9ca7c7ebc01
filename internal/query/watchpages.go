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
			return rowsOf(pageRows{serverTime: l.ServerTime, total: l.Total, matched: l.Matched}, l.Items,
				func(k *api.Key) api.KeyRef { return api.KeyRef{Controller: k.Controller, Key: k.Key} })
		},
		page: func(ev *api.WatchEvent, list any) { ev.Page = list.(*api.KeyList) },
		changed: func(ev *api.WatchEvent, rows []any) {
			ev.Changed = appendRows(ev.Changed, rows)
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
			return rowsOf(pageRows{serverTime: l.ServerTime, total: l.Total, matched: l.Matched}, l.Groups,
				func(g *api.ErrorGroup) api.KeyRef {
					return api.KeyRef{Controller: g.Controller, Fingerprint: g.Fingerprint}
				})
		},
		page: func(ev *api.WatchEvent, list any) { ev.ErrorPage = list.(*api.ErrorGroupList) },
		changed: func(ev *api.WatchEvent, rows []any) {
			ev.ChangedGroups = appendRows(ev.ChangedGroups, rows)
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
			return rowsOf(pageRows{serverTime: l.ServerTime, head: l.Source}, l.Controllers,
				func(c *api.Controller) api.KeyRef { return api.KeyRef{Controller: c.Name} })
		},
		page: func(ev *api.WatchEvent, list any) { ev.ControllerPage = list.(*api.ControllerList) },
		changed: func(ev *api.WatchEvent, rows []any) {
			ev.ChangedControllers = appendRows(ev.ChangedControllers, rows)
		},
		// A log's source changes as it is read (lines, its end): said whole.
		head: func(ev *api.WatchEvent, head any) { ev.Source = head.(*api.ListSource) },
	}, nil
}

// rowsOf fills p with items, each named by ref: the one split of a page
// into rows for all three endpoints.
func rowsOf[T any](p pageRows, items []T, ref func(*T) api.KeyRef) pageRows {
	p.refs, p.rows = make([]api.KeyRef, len(items)), make([]any, len(items))
	for i := range items {
		p.refs[i], p.rows[i] = ref(&items[i]), &items[i]
	}
	return p
}

// appendRows appends the rows a CHANGE carries (each a *T, as rowsOf
// made them) to dst, whole.
func appendRows[T any](dst []T, rows []any) []T {
	for _, r := range rows {
		dst = append(dst, *r.(*T))
	}
	return dst
}
