package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// keyMap is every binding of the UI. Disabled bindings neither match nor show
// in help, so help renders what the user can do right now.
type keyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding

	Open, Back, Filter, States, Sort, Controller, Group key.Binding
	// PrevController is shift+tab, which Controller also matches: it cycles back.
	PrevController key.Binding
	// The detail and group views' own: leave the view, show a group's keys.
	Leave, ShowGroup key.Binding
	Pause, Refresh   key.Binding

	Forget, Retry, ForgetAll, RetryAll key.Binding
	// RefusedForget and RefusedRetry are forget and retry where the
	// endpoint does not allow them: answered with why, not dropped (see
	// refusal). No help: help says the endpoint is read-only.
	RefusedForget, RefusedRetry key.Binding

	// The pod picker's own: attach, clear its filter, leave; and, while its
	// filter is typed, the keys that end the typing (j and k stay letters).
	Pick, ClearPick, LeavePick key.Binding
	AcceptFilter, CancelFilter key.Binding

	Help, Quit, Interrupt key.Binding
}

func newKeyMap() keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return keyMap{
		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup", "ctrl+b"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+f", "space"}, "pgdn", "page down"),
		Home:     b([]string{"home"}, "home", "first key"),
		End:      b([]string{"end", "G"}, "end/G", "last key"),

		Open:           b([]string{"enter"}, "enter", "explain key"),
		Back:           b([]string{"esc"}, "esc", "clear filter / back"),
		Filter:         b([]string{"/"}, "/", "filter (~regex)"),
		Leave:          b([]string{"esc"}, "esc", "back"),
		PrevController: key.NewBinding(key.WithKeys("shift+tab")),
		ShowGroup:      b([]string{"enter"}, "enter", "show its keys"),
		States:         b(stateKeyList(len(api.States)), stateKeyHelp(len(api.States)), "toggle state"),
		Sort:           b([]string{"s"}, "s", "cycle sort"),
		Controller:     b([]string{"tab", "shift+tab"}, "tab", "switch controller"),
		Group:          b([]string{"g"}, "g", "group by error"),
		Pause:          b([]string{"p"}, "p", "pause/resume"),
		Refresh:        b([]string{"ctrl+r"}, "ctrl+r", "refresh now"),

		Forget:    b([]string{"f"}, "f", "forget key"),
		Retry:     b([]string{"r"}, "r", "retry now"),
		ForgetAll: b([]string{"F"}, "F", "forget all shown"),
		RetryAll:  b([]string{"R"}, "R", "retry all shown"),
		// Enabled by setActions, when Forget and Retry are not.
		RefusedForget: key.NewBinding(key.WithKeys("f", "F"), key.WithDisabled()),
		RefusedRetry:  key.NewBinding(key.WithKeys("r", "R"), key.WithDisabled()),

		Pick:      b([]string{"enter"}, "enter", "attach"),
		ClearPick: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter"), key.WithDisabled()),
		LeavePick: b([]string{"q", "esc"}, "q/esc", "quit"),

		AcceptFilter: b([]string{"enter", "up", "down"}, "enter", "apply filter"),
		CancelFilter: b([]string{"esc"}, "esc", "cancel"),

		Help:      b([]string{"?"}, "?", "help"),
		Quit:      b([]string{"q", "ctrl+c"}, "q", "quit"),
		Interrupt: key.NewBinding(key.WithKeys("ctrl+c")),
	}
}

// setActions enables forget and retry as the endpoint allows.
func (k *keyMap) setActions(forget, requeue bool) {
	k.Forget.SetEnabled(forget)
	k.ForgetAll.SetEnabled(forget)
	k.Retry.SetEnabled(requeue)
	k.RetryAll.SetEnabled(requeue)
	k.RefusedForget.SetEnabled(!forget)
	k.RefusedRetry.SetEnabled(!requeue)
}

// setPickFiltered makes esc in the picker clear an applied filter rather
// than quit, and says so in help.
func (k *keyMap) setPickFiltered(applied bool) {
	k.ClearPick.SetEnabled(applied)
	if applied {
		k.LeavePick.SetHelp("q", "quit")
	} else {
		k.LeavePick.SetHelp("q/esc", "quit")
	}
}

// pickerHelp is the short help of the pod picker, or of its filter while
// the filter is typed.
func (k keyMap) pickerHelp(typing bool) []key.Binding {
	if typing {
		return []key.Binding{k.AcceptFilter, k.CancelFilter}
	}
	return []key.Binding{k.Up, k.Down, k.Pick, k.Filter, k.ClearPick, k.LeavePick}
}

// topHelp is the short help of the top view.
func (k keyMap) topHelp() []key.Binding {
	return []key.Binding{k.Open, k.Filter, k.States, k.Sort, k.Controller, k.Group, k.Pause, k.Forget, k.Retry, k.Help, k.Quit}
}

// detailHelp is the short help of the detail view.
func (k keyMap) detailHelp() []key.Binding {
	return []key.Binding{k.Leave, k.Forget, k.Retry, k.Pause, k.Refresh, k.Help, k.Quit}
}

// groupHelp is the short help of the group view, where f and r act on
// every key of the selected group: the same bindings (enabled as the
// endpoint allows), named for what they do there.
func (k keyMap) groupHelp() []key.Binding {
	forget, retry := k.Forget, k.Retry
	forget.SetHelp("f", "forget group")
	retry.SetHelp("r", "retry group")
	return []key.Binding{k.ShowGroup, k.Leave, forget, retry, k.Refresh, k.Help, k.Quit}
}

// fullHelp is every binding, in columns, for the ? view, which any view
// opens: f and r say what they do in the group view too.
func (k keyMap) fullHelp() [][]key.Binding {
	forget, retry := k.Forget, k.Retry
	forget.SetHelp("f", "forget key (group, in g)")
	retry.SetHelp("r", "retry now (group, in g)")
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End, k.Help, k.Quit},
		{k.Open, k.Back, k.Filter, k.States, k.Sort, k.Controller, k.Group},
		{k.Pause, k.Refresh, forget, retry, k.ForgetAll, k.RetryAll},
	}
}
