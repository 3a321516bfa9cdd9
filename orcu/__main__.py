from orcu.driver.cli import entry

entry()
