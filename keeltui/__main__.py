from keeltui.cli import main

raise SystemExit(main())
