package cli

import "context"

// runFleetTUI runs the fleet view until the user quits it.
func runFleetTUI(ctx context.Context, o *FleetOptions) error {
	f, err := o.read(ctx)
	if err != nil {
		return err
	}
	return printFleet(o.Out, f.Rows, false)
}
