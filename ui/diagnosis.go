package ui

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
)

// situationOrder ranks the situations worst first: the one the header
// names when all controllers are shown.
var situationOrder = []string{
	inspector.SituationOutage, inspector.SituationPermanent, inspector.SituationFailing,
	inspector.SituationRetrying, inspector.SituationFailed, inspector.SituationBusy,
	inspector.SituationHealthy, inspector.SituationStandby,
}

// diagnosis is the one-line diagnosis the header shows — the selected
// controller's, or the worst one's when all are shown — and how many other
// controllers are in trouble too. ok is false before the first answer.
func (t *topModel) diagnosis() (d inspector.ControllerDiagnosis, others int, ok bool) {
	shown := t.shown()
	if len(shown) == 0 {
		return d, 0, false
	}
	ds := make([]inspector.ControllerDiagnosis, len(shown))
	trouble := make(map[string]int, len(shown))
	for i, c := range shown {
		ds[i] = inspector.DiagnoseController(c, t.groups, t.overview.ServerTime)
		trouble[c.Name] = inspector.InTrouble(&c)
	}
	worst := slices.MinFunc(ds, func(a, b inspector.ControllerDiagnosis) int {
		return cmp.Or(
			cmp.Compare(situationRank(a.Situation), situationRank(b.Situation)),
			cmp.Compare(trouble[b.Controller], trouble[a.Controller]),
			cmp.Compare(a.Controller, b.Controller))
	})
	for _, d := range ds {
		if d.Controller != worst.Controller && trouble[d.Controller] > 0 {
			others++
		}
	}
	return worst, others, true
}

func situationRank(s string) int {
	if i := slices.Index(situationOrder, s); i >= 0 {
		return i
	}
	return len(situationOrder)
}

// diagnosisLine is the header's diagnosis: "outage — 100 keys backing off
// since 08:01 on …", styled by how bad it is, and, when all controllers
// are shown, how many are in trouble, it included (tab switches to them;
// help's Header section says so). The
// count comes first so that a narrow terminal cuts the diagnosis, not it.
func (t *topModel) diagnosisLine() string {
	s := &t.c.styles
	d, others, ok := t.diagnosis()
	if !ok {
		return s.label.Render("diagnosis ") + s.dim.Render("…")
	}
	style := s.ok
	switch d.Situation {
	case inspector.SituationOutage, inspector.SituationPermanent, inspector.SituationFailing:
		style = s.bad
	case inspector.SituationRetrying, inspector.SituationFailed, inspector.SituationBusy:
		style = s.warn
	case inspector.SituationStandby:
		style = s.dim
	}
	line := ""
	if others > 0 {
		line = s.label.Render(fmt.Sprintf("worst of %d controllers in trouble: ", others+1))
	}
	return line + style.Render(d.Controller) + " — " + d.Summary
}
