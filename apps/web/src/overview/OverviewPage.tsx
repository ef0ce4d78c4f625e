import type { Inventory } from "@petstore/contract";
import { useId } from "react";
import { Link } from "react-router-dom";
import { petQueryKeys, usePetstoreClient } from "../api/petstore-client.js";
import { Panel } from "../design-system/Panel.js";
import { useDocumentTitle } from "../document/use-document-title.js";
import { isWaitingOutOutage, LoadFailure } from "../design-system/LoadFailure.js";
import { petsListPath } from "../navigation/app-paths.js";
import { formatCount, petsCount } from "../design-system/counts.js";
import { categoryRows, countPath, STATUS_COLUMNS } from "./inventory-figures.js";
import { StatusChart } from "./StatusChart.js";
import table from "../design-system/DataTable.module.css";
import formStyles from "../design-system/Form.module.css";
import adminPage from "../design-system/AdminPage.module.css";
import styles from "./OverviewPage.module.css";

/** Where the app opens after sign-in. */
export const OVERVIEW_PATH = "/";

/**
 * `Overview` (`/`, the page after sign-in): the store at a glance, from getInventory. Pets by status as a
 * bar chart and a table, and by category in a table; each count opens the pets list filtered by it.
 */
export function OverviewPage() {
  useDocumentTitle("Overview");
  const petstore = usePetstoreClient();
  const inventoryQuery = petstore.store.getInventory.useQuery({ queryKey: petQueryKeys.inventory });

  let content;
  if (inventoryQuery.isError || isWaitingOutOutage(inventoryQuery)) {
    content = <LoadFailure title="The store's figures could not be loaded." query={inventoryQuery} />;
  } else if (inventoryQuery.isPending) {
    content = <p aria-busy="true">Loading the store's figures…</p>;
  } else {
    content = <StoreFigures inventory={inventoryQuery.data.body} />;
  }

  return (
    <div className={adminPage.page}>
      <div>
        <h1>Overview</h1>
        <p className={formStyles.intro}>
          How many pets the store has, by status and by category. Each count opens the pets it counts.
        </p>
      </div>
      {content}
    </div>
  );
}

function StoreFigures({ inventory }: { inventory: Inventory }) {
  const statusHeading = useId();
  const categoryHeading = useId();
  const rows = categoryRows(inventory);
  return (
    <>
      <Panel aria-labelledby={statusHeading} className={styles.panel}>
        <h2 id={statusHeading}>Pets by status</h2>
        <div className={styles.byStatus}>
          <StatusChart counts={inventory.byStatus} />
          <div className={table.scroller}>
            <table className={table.table} aria-labelledby={statusHeading}>
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col" className={table.numeric}>
                    Pets
                  </th>
                </tr>
              </thead>
              <tbody>
                {STATUS_COLUMNS.map((column) => {
                  const count = inventory.byStatus[column.key];
                  return (
                    <tr key={column.key}>
                      <th scope="row">{column.heading}</th>
                      <td className={table.numeric}>
                        <Count
                          count={count}
                          to={countPath(undefined, column)}
                          label={`${formatCount(count)} ${column.word}`}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">All</th>
                  <td className={table.numeric}>
                    <Count count={inventory.total} to={petsListPath()} label={`${petsCount(inventory.total)} in all`} />
                  </td>
                </tr>
              </tfoot>
            </table>
          </div>
        </div>
      </Panel>
      <Panel aria-labelledby={categoryHeading} className={styles.panel}>
        <h2 id={categoryHeading}>Pets by category</h2>
        {rows.length === 0 ? (
          <p className={styles.muted}>No pets in any category yet.</p>
        ) : (
          <div className={table.scroller}>
            <table className={`${table.table} ${styles.byCategory}`} aria-labelledby={categoryHeading}>
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  {STATUS_COLUMNS.map((column) => (
                    <th key={column.key} scope="col" className={table.numeric}>
                      {column.heading}
                    </th>
                  ))}
                  <th scope="col" className={table.numeric}>
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.key}>
                    <th scope="row">{row.label}</th>
                    {STATUS_COLUMNS.map((column) => {
                      const count = row.byStatus[column.key];
                      return (
                        <td key={column.key} className={table.numeric}>
                          <Count
                            count={count}
                            to={countPath(row, column)}
                            label={`${formatCount(count)} ${column.word} in ${row.label}`}
                          />
                        </td>
                      );
                    })}
                    <td className={`${table.numeric} ${styles.total}`}>
                      <Count
                        count={row.total}
                        to={countPath(row, undefined)}
                        label={`${petsCount(row.total)} in ${row.label}`}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </>
  );
}

/**
 * A count; a link to the pets it counts when a list filter selects them. Its name says what it counts
 * (`3 sold in Dogs`), starting with the number it shows.
 */
function Count({ count, to, label }: { count: number; to: string | undefined; label: string }) {
  if (to === undefined) return <>{formatCount(count)}</>;
  return (
    <Link to={to} aria-label={label}>
      {formatCount(count)}
    </Link>
  );
}
