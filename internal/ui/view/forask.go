package view

import (
	"context"

	tea "charm.land/bubbletea/v2"

	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// The list `top --for` reads is `why TYPE`'s: it walks each object's chain
// but asks nothing of its blockers (each would cost a search and a read),
// so its answers lack the steps a blocker's answer gives ("Check that a
// scheduler runs" for a Pending pod below a Deployment). Enter on a row
// shows the list's answer at once and asks for the object's own, as `why
// TYPE/NAME` answers it (ForOptions.Ask), which replaces it when it comes:
// the detail says the same next steps as `kubectl backoff why`.

// ForAskedMsg carries the answer asked for the object opened (id).
type ForAskedMsg struct {
	id  string
	a   *objwhy.Answer
	err error
}

// forAsked is an object's own answer: escaped for the screen, and raw.
type forAsked struct{ shown, raw *objwhy.Answer }

// forAskCmd asks for o's own answer.
func forAskCmd(ctx context.Context, ask func(context.Context, objwhy.Object) (*objwhy.Answer, error), o objwhy.Object, id string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, chainAskTimeout)
		defer cancel()
		a, err := ask(ctx, o)
		return ForAskedMsg{id: id, a: a, err: err}
	}
}

// askOpen asks for the answer of a, the answer just opened, unless none
// can be asked (no ForOptions.Ask).
func (f *For) askOpen(a *objwhy.Answer) tea.Cmd {
	if f.opts.Ask == nil {
		return nil
	}
	f.asking = answerID(a)
	return f.C.Stamp(forAskCmd(f.C.Conn.Ctx, f.opts.Ask, f.RawOf(a).Object, f.asking))
}

// receivedAsked keeps the answer asked for; a failure keeps the list's
// answer and says why.
func (f For) receivedAsked(msg ForAskedMsg) (View, tea.Cmd, Intent, bool) {
	if msg.id == f.asking {
		f.asking = ""
	}
	if msg.err != nil || msg.a == nil {
		if msg.err != nil && msg.id == f.Open {
			return f, nil, NoteIntent{Text: "its blockers were not read: " + msg.err.Error(), IsErr: true}, true
		}
		return f, nil, nil, true
	}
	asked := make(map[string]forAsked, len(f.asked)+1) // earlier copies of the model share the old map
	for k, v := range f.asked {
		asked[k] = v
	}
	asked[msg.id] = forAsked{shown: escapedAnswer(msg.a), raw: msg.a}
	f.asked = asked
	f.setKeys()
	return f, nil, nil, true
}

// ownAnswer is the object's own answer for the list's answer a, when it
// was asked for; else a.
func (f *For) ownAnswer(a *objwhy.Answer) *objwhy.Answer {
	if x, ok := f.asked[answerID(a)]; ok {
		return x.shown
	}
	return a
}
