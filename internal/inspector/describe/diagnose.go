package describe

import (
	"context"
	"fmt"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// DiagnoseControllers diagnoses every controller (or only the one named),
// from v1/controllers and the error groups of their failing keys. A server
// without v1/errors still gets a diagnosis, from its counts alone.
func DiagnoseControllers(ctx context.Context, s *inspector.Session, controller string) ([]explain.ControllerDiagnosis, error) {
	ov, err := s.Overview(ctx)
	if err != nil {
		return nil, err
	}
	var groups []api.ErrorGroup
	// A replica that fails here only loses its groups: its counts still speak.
	if l, _ := s.Errors(ctx, controller, api.Filter{States: explain.DiagnosisStates}); l != nil {
		groups = l.Groups
	}
	var out []explain.ControllerDiagnosis
	for _, c := range ov.Controllers {
		if controller == "" || c.Name == controller {
			out = append(out, explain.DiagnoseController(c, ov.Source, groups, ov.ServerTime))
		}
	}
	if controller != "" && len(out) == 0 {
		has := "the endpoint has"
		if ov.Source != nil && ov.Source.Kind == api.SourceLogs {
			has = "the log has"
		}
		return nil, fmt.Errorf("no controller %q; %s %s", controller, has, controllerNames(ov.Controllers))
	}
	return out, nil
}

// controllerNames lists controllers for a message: "outage, naive".
func controllerNames(cs []api.Controller) string {
	if len(cs) == 0 {
		return "none"
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}
