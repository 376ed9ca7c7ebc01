package view

import (
	"charm.land/bubbles/v2/key"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// TopKeys are the top view's: the table, its query, the actions on its
// keys, and the drill-down's esc (Back).
type TopKeys struct {
	widget.ScrollKeys
	Open, Back, Filter, States, Sort, Controller, PrevController, Group key.Binding
	Pause, Refresh                                                      key.Binding
	Forget, Retry, ForgetAll, RetryAll, RefusedForget, RefusedRetry     key.Binding
	Help, Quit                                                          key.Binding
}

// TopKeysOf is the top view's keys, taken from the catalog k.
func TopKeysOf(k *KeyMap) TopKeys {
	return TopKeys{ScrollKeys: k.ScrollKeys(), Open: k.Open, Back: k.Back, Filter: k.Filter, States: k.States, Sort: k.Sort,
		Controller: k.Controller, PrevController: k.PrevController, Group: k.Group, Pause: k.Pause, Refresh: k.Refresh,
		Forget: k.Forget, Retry: k.Retry, ForgetAll: k.ForgetAll, RetryAll: k.RetryAll,
		RefusedForget: k.RefusedForget, RefusedRetry: k.RefusedRetry, Help: k.Help, Quit: k.Quit}
}

// ShortHelp is the top view's hints line. help.KeyMap.
func (k TopKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Back, k.Filter, k.States, k.Sort, k.Controller, k.Group, k.Pause, k.Forget, k.Retry, k.Help, k.Quit}
}

// FullHelp is every binding of the top view, in columns, for the ? view:
// f and r say what they do in the group view, which g opens from here.
// help.KeyMap.
func (k TopKeys) FullHelp() [][]key.Binding {
	forget, retry := k.Forget, k.Retry
	forget.SetHelp("f", "forget key (group, in g)")
	retry.SetHelp("r", "retry now (group, in g)")
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End, k.Help, k.Quit},
		{k.Open, k.Back, k.Filter, k.States, k.Sort, k.Controller, k.Group},
		{k.Pause, k.Refresh, forget, retry, k.ForgetAll, k.RetryAll},
	}
}
