"""The RegDesk agent, free of any GUI: platform client, tools, runtime, turn loop."""
