from visx.cli import main

raise SystemExit(main())
