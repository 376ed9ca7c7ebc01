package view

import (
	"charm.land/bubbles/v2/key"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// KeyMap is the catalog of the UI's bindings: each key bound, named and
// enabled in one place (setActions, setStates, setPickFiltered), so that a
// key reads the same in every view. No view matches against it: each takes
// its own key map from it (viewkeys.go), of the keys it handles, and
// handles them itself. Disabled bindings neither match nor show in help,
// so help renders what the user can do right now.
type KeyMap struct {
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
	// StillPause is p and ctrl+r over a snapshot, which does not change:
	// answered with why (see Common.StillText). Pause and Refresh are disabled.
	StillPause key.Binding

	// The pod picker's own: attach, clear its filter, leave; and, while its
	// filter is typed, the keys that end the typing (j and k stay letters).
	Pick, ClearPick, LeavePick key.Binding
	AcceptFilter, CancelFilter key.Binding

	Help, Quit, Interrupt key.Binding
}

// NewKeyMap is the catalog with every key bound as it is before the endpoint answers.
func NewKeyMap() KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return KeyMap{
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
		// Enabled by setStill, when Pause and Refresh are not.
		StillPause: key.NewBinding(key.WithKeys("p", "ctrl+r"), key.WithDisabled()),

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
func (k *KeyMap) setActions(forget, requeue bool) {
	k.Forget.SetEnabled(forget)
	k.ForgetAll.SetEnabled(forget)
	k.Retry.SetEnabled(requeue)
	k.RetryAll.SetEnabled(requeue)
	k.RefusedForget.SetEnabled(!forget)
	k.RefusedRetry.SetEnabled(!requeue)
}

// SetStill disables pause and refresh over a source that does not change
// (a snapshot), and makes p and ctrl+r say so.
func (k *KeyMap) SetStill(still bool) {
	k.Pause.SetEnabled(!still)
	k.Refresh.SetEnabled(!still)
	k.StillPause.SetEnabled(still)
}

// setPickFiltered makes esc in the picker clear an applied filter rather
// than quit, and says so in help.
func (k *KeyMap) setPickFiltered(applied bool) {
	k.ClearPick.SetEnabled(applied)
	if applied {
		k.LeavePick.SetHelp("q", "quit")
	} else {
		k.LeavePick.SetHelp("q/esc", "quit")
	}
}
