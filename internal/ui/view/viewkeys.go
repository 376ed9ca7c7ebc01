package view

import (
	"charm.land/bubbles/v2/key"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// Each view's own key map, as bubbles' components have theirs: the keys
// the view handles in its update, and its hints (help.KeyMap). The root
// draws the hints line from the key map of the mode on top of its stack,
// and the ? view from the key map of the view it was opened over, so that
// neither names a key the view shown does not take. Each is taken from the
// catalog (keyMap) when used, so the endpoint's capabilities (which
// enable forget and retry) hold in every view at once.

// ScrollKeys are the keys that move a cursor or a text.
func (k *KeyMap) ScrollKeys() widget.ScrollKeys {
	return widget.ScrollKeys{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Home: k.Home, End: k.End}
}

// rowKeys are the keys that move a list's cursor, as top's table has them
// (home, end/G, pgup, pgdn), their help naming what the list holds: every
// list view takes them, so that G moves the selection everywhere.
func rowKeys(k *KeyMap, row string) widget.ScrollKeys {
	sk := k.ScrollKeys()
	sk.Home.SetHelp("home", "first "+row)
	sk.End.SetHelp("end/G", "last "+row)
	return sk
}

// detailKeys are the detail view's: scroll the explanation, act on its
// key, leave.
type detailKeys struct {
	widget.ScrollKeys
	Leave, Forget, Retry, RefusedForget, RefusedRetry key.Binding
	Pause, Refresh, Help, Quit                        key.Binding
}

func (k *KeyMap) detail() detailKeys {
	// home and end scroll the explanation: there is one key here.
	sk := k.ScrollKeys()
	sk.Home.SetHelp("home", "top")
	sk.End.SetHelp("end/G", "bottom")
	return detailKeys{ScrollKeys: sk, Leave: k.Leave, Forget: k.Forget, Retry: k.Retry,
		RefusedForget: k.RefusedForget, RefusedRetry: k.RefusedRetry, Pause: k.Pause, Refresh: k.Refresh, Help: k.Help, Quit: k.Quit}
}

// ShortHelp is the detail view's hints line. help.KeyMap.
func (k detailKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Leave, k.Forget, k.Retry, k.Pause, k.Refresh, k.Help, k.Quit}
}

// FullHelp is every binding of the detail view, in columns. help.KeyMap.
func (k detailKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End, k.Help, k.Quit},
		{k.Leave, k.Pause, k.Refresh, k.Forget, k.Retry},
	}
}

// groupKeys are the group view's, where f and r act on every key of the
// selected group: the same bindings (enabled as the endpoint allows),
// named for what they do there. Leave is esc or g, which opened it.
type groupKeys struct {
	widget.ScrollKeys
	ShowGroup, Leave, Group                                         key.Binding
	Forget, Retry, ForgetAll, RetryAll, RefusedForget, RefusedRetry key.Binding
	Pause, Refresh, Help, Quit                                      key.Binding
}

func (k *KeyMap) group() groupKeys {
	forget, retry := k.Forget, k.Retry
	forget.SetHelp("f", "forget group")
	retry.SetHelp("r", "retry group")
	sk := k.ScrollKeys()
	sk.Home.SetHelp("home", "first group")
	sk.End.SetHelp("end/G", "last group")
	return groupKeys{ScrollKeys: sk, ShowGroup: k.ShowGroup, Leave: k.Leave, Group: k.Group,
		Forget: forget, Retry: retry, ForgetAll: k.ForgetAll, RetryAll: k.RetryAll,
		RefusedForget: k.RefusedForget, RefusedRetry: k.RefusedRetry, Pause: k.Pause, Refresh: k.Refresh, Help: k.Help, Quit: k.Quit}
}

// ShortHelp is the group view's hints line. help.KeyMap.
func (k groupKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.ShowGroup, k.Leave, k.Forget, k.Retry, k.Refresh, k.Help, k.Quit}
}

// FullHelp is every binding of the group view, in columns. F and R act on
// the group too: they are f and r here. help.KeyMap.
func (k groupKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End, k.Help, k.Quit},
		{k.ShowGroup, k.Leave, k.Pause, k.Refresh, k.Forget, k.Retry},
	}
}

// pickerKeys are the pod picker's: move, attach, filter, clear the filter,
// leave. It has no ? view: it has nothing to explain beyond its line.
type pickerKeys struct {
	widget.ScrollKeys
	Pick, Filter, ClearPick, LeavePick key.Binding
}

func (k *KeyMap) picker() pickerKeys {
	return pickerKeys{ScrollKeys: k.ScrollKeys(), Pick: k.Pick, Filter: k.Filter, ClearPick: k.ClearPick, LeavePick: k.LeavePick}
}

// ShortHelp is the picker's hints line. help.KeyMap.
func (k pickerKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Pick, k.Filter, k.ClearPick, k.LeavePick}
}

// FullHelp is ShortHelp in one column. help.KeyMap.
func (k pickerKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// FilterKeys is the filter line's keys while it is typed.
func (k *KeyMap) FilterKeys() widget.FilterKeys {
	return widget.FilterKeys{Accept: k.AcceptFilter, Cancel: k.CancelFilter}
}

// helpKeys are the ? view's: scroll, go back, quit.
type helpKeys struct {
	widget.ScrollKeys
	Close, Quit key.Binding
}

func (k *KeyMap) help() helpKeys {
	return helpKeys{ScrollKeys: k.ScrollKeys(),
		Close: key.NewBinding(key.WithKeys(append(k.Help.Keys(), k.Back.Keys()...)...), key.WithHelp("? or esc", "to go back")),
		Quit:  k.Quit}
}

// ShortHelp is the ? view's hints line. help.KeyMap.
func (k helpKeys) ShortHelp() []key.Binding { return []key.Binding{k.Close, k.Quit} }

// FullHelp is ShortHelp in one column. help.KeyMap.
func (k helpKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
