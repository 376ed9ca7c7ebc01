package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"sigs.k8s.io/yaml"
)

// A Prometheus' external_labels (global.external_labels: {cluster:
// prod-east}) are added to what leaves it: federation, remote write, the
// alerts it sends, and what a Thanos sidecar serves to Thanos Query. They
// are not added to the answers of its own query API. Read from that
// Prometheus itself, every row's cluster was empty ("-") although the
// server says which cluster it is. A Prometheus serves its configuration
// at /api/v1/status/config (Thanos Query and Mimir do not: their series
// carry the labels already).

// ClusterFromExternalLabels is Fleet.ClusterFrom when the rows' cluster
// is the server's own external label.
const ClusterFromExternalLabels = "external_labels"

// ExternalLabels are the server's global.external_labels, read from its
// configuration (/api/v1/status/config).
func (c *Client) ExternalLabels(ctx context.Context) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base.String()+"/api/v1/status/config", nil)
	if err != nil {
		return nil, err
	}
	code, body, err := c.do(req)
	if err != nil {
		return nil, err
	}
	var a struct {
		Status    string `json:"status"`
		ErrorType string `json:"errorType"`
		Error     string `json:"error"`
		Data      struct {
			YAML string `json:"yaml"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &a); err != nil || a.Status == "" {
		return nil, &APIError{Status: code, Message: firstLine(body)}
	}
	if a.Status != "success" {
		return nil, &APIError{Status: code, Type: a.ErrorType, Message: a.Error}
	}
	var cfg struct {
		Global struct {
			ExternalLabels map[string]string `json:"external_labels"`
		} `json:"global"`
	}
	if err := yaml.Unmarshal([]byte(a.Data.YAML), &cfg); err != nil {
		return nil, fmt.Errorf("prometheus at %s: its configuration: %w", c.Server(), err)
	}
	return cfg.Global.ExternalLabels, nil
}

// clusterFromServer names every row's cluster by the server's external
// label when no series had the label: a Prometheus read directly does not
// add it to its answers. It reports whether it did. A server that does not
// serve its configuration (Thanos Query, Mimir, a proxy) leaves the rows
// as they are.
func clusterFromServer(ctx context.Context, c *Client, label string, rows map[string]*Row) bool {
	for _, r := range rows {
		if r.Cluster != "" {
			return false
		}
	}
	if len(rows) == 0 {
		return false
	}
	labels, err := c.ExternalLabels(ctx)
	if err != nil || labels[label] == "" {
		return false
	}
	for _, r := range rows {
		r.Cluster = labels[label]
	}
	return true
}
