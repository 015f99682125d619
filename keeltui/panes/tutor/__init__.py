"""The tutor pane's behaviour (the view is keeltui/tutor_view.py): its turns and its jobs."""
