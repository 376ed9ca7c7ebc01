//go:build e2e

package e2e

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// keysSeries is one kubectl_backoff_keys sample of the text exposition
// (labels in name order: controller, state).
var keysSeries = regexp.MustCompile(`(?m)^` + instrument.MetricKeys + `\{controller="([^"]+)",state="([^"]+)"\} (\S+)$`)

// testMetrics scrapes the widgets manager's metrics server (controller-runtime's
// registry, where every probe of the process registers its series) with a
// service account allowed GET /metrics, and checks kubectl_backoff_keys
// against v1/controllers, controller by controller and state by state. The
// controllers compared hold still: naive keys wait out long delays, the
// wellbehaved ones have failed for good, the widget waits a minute.
func testMetrics(ctx context.Context, t *testing.T, cs kubernetes.Interface, metricsAddr, endpointURL string) {
	token, sub := serviceAccountToken(ctx, t, cs, ns, "backoff-metrics")
	cr := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "backoff-metrics"},
		Rules:      []rbacv1.PolicyRule{{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}},
	}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, cr, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	crb := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "backoff-metrics"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "backoff-metrics"},
		Subjects:   []rbacv1.Subject{sub},
	}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, crb, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The metrics server serves a self-signed certificate for the address
	// this test chose.
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	get := func(url, token string) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("GET %s: %s: %s", url, resp.Status, b)
		}
		return b, err
	}
	compare := []string{"naive", "wellbehaved", widgetsController}
	eventually(t, 30*time.Second, "kubectl_backoff_keys matches v1/controllers", func(context.Context) error {
		scrape, err := get("https://"+metricsAddr+"/metrics", token)
		if err != nil {
			return err
		}
		body, err := get(endpointURL+"v1/controllers", "")
		if err != nil {
			return err
		}
		var list api.ControllerList
		if err := json.Unmarshal(body, &list); err != nil {
			return fmt.Errorf("v1/controllers: %w", err)
		}
		series := map[string]map[api.State]int{}
		for _, m := range keysSeries.FindAllStringSubmatch(string(scrape), -1) {
			v, err := strconv.ParseFloat(m[3], 64)
			if err != nil {
				return fmt.Errorf("%s: %w", m[0], err)
			}
			if series[m[1]] == nil {
				series[m[1]] = map[api.State]int{}
			}
			series[m[1]][api.State(m[2])] = int(v)
		}
		for _, name := range compare {
			c := controllerNamed(list.Controllers, name)
			if c == nil {
				return fmt.Errorf("v1/controllers lacks %s", name)
			}
			got := series[name]
			if len(got) != len(api.States) {
				return fmt.Errorf("%s: %d states in %s, want every one of %v:\n%v", name, len(got), instrument.MetricKeys, api.States, got)
			}
			for _, st := range api.States {
				if got[st] != c.Counts[st] {
					return fmt.Errorf("%s{controller=%q,state=%q} = %d, v1/controllers counts %d", instrument.MetricKeys, name, st, got[st], c.Counts[st])
				}
			}
		}
		return nil
	})
	if _, err := get("https://"+metricsAddr+"/metrics", ""); err == nil {
		t.Error("metrics without a token: served, want 401")
	}
}

func controllerNamed(cs []api.Controller, name string) *api.Controller {
	for i := range cs {
		if cs[i].Name == name {
			return &cs[i]
		}
	}
	return nil
}
