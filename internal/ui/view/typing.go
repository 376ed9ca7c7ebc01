package view

// Whether a view's filter line is being typed is the view's own state
// (FilterView.Typing): the root reads it to route keys to the line, and
// pushes nothing for it.

// Typing reports whether the filter line is typed (FilterView).
func (t Top) Typing() bool { return t.Filter.Typing() }

// Typing reports whether the filter line is typed (FilterView).
func (p Picker) Typing() bool { return p.Filter.Typing() }

// Typing reports whether the filter line is typed (FilterView).
func (v Fleet) Typing() bool { return v.typing }
