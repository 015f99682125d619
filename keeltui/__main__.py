from keeltui.cli.commands import main

raise SystemExit(main())
