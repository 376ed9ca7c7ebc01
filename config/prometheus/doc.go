// Package prometheus holds the alerting rules for the probe's metrics
// (rules.yaml), to load into Prometheus as they are, and the test that
// checks them with the parser promtool runs:
//
//	promtool check rules config/prometheus/rules.yaml
//	(cd config/prometheus && go test ./...)
//
// It has no Go API: the file is the product.
package prometheus
