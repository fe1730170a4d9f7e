import type { FlowstateServiceName } from "@flowstate/contracts/services/catalog";
import { Duration, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import type * as ec2 from "aws-cdk-lib/aws-ec2";
import { SubnetType } from "aws-cdk-lib/aws-ec2";
import * as kms from "aws-cdk-lib/aws-kms";
import * as logs from "aws-cdk-lib/aws-logs";
import * as rds from "aws-cdk-lib/aws-rds";
import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import type { Construct } from "constructs";
import { acknowledge } from "../nag.ts";
import { type DeploymentNames, dataServices, entryOf } from "../services.ts";

export interface DataStackProps extends StackProps {
  names: DeploymentNames;
  vpc: ec2.IVpc;
  securityGroup: ec2.ISecurityGroup;
  dataKey: kms.IKey;
  /** prod: 35 days of backups and a reader in another AZ; dev: 7 days, writer only. */
  production: boolean;
}

/**
 * Aurora PostgreSQL Serverless v2, encrypted with the data key, with continuous backups (point-in-time
 * recovery within the retention) and deletion protection. One database, one schema and one login per
 * service with `database: true` in the catalog: the logins' passwords are generated here, one
 * secret each; the roles themselves are created by the one-off `database-users` task (compute
 * stack, container/database-users.ts), since CloudFormation cannot run SQL.
 */
export class DataStack extends Stack {
  readonly cluster: rds.DatabaseCluster;
  /** Per service, its logins' secrets (audit-svc has two: the insert-only service and the schema owner). */
  readonly logins = new Map<
    FlowstateServiceName,
    { variable: string; username: string; secret: secretsmanager.ISecret }[]
  >();

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { names } = props;
    // Imported by ARN: a grant then lands in the grantee's own policy, not in the key's (no cycle between stacks).
    const dataKey = kms.Key.fromKeyArn(this, "DataKey", props.dataKey.keyArn);
    const parameterGroup = new rds.ParameterGroup(this, "Parameters", {
      engine: rds.DatabaseClusterEngine.auroraPostgres({ version: rds.AuroraPostgresEngineVersion.VER_17_7 }),
      // TLS for every connection; logins are logged (who connected, never what they sent).
      parameters: { "rds.force_ssl": "1", log_connections: "1", log_disconnections: "1" },
    });
    const clusterIdentifier = names.clusterIdentifier;
    // Created here with its retention (RDS would create it without one, and CDK's alternative is a Lambda).
    const postgresLogs = new logs.LogGroup(this, "PostgresLogs", {
      logGroupName: `/aws/rds/cluster/${clusterIdentifier}/postgresql`,
      retention: logs.RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.cluster = new rds.DatabaseCluster(this, "Db", {
      engine: rds.DatabaseClusterEngine.auroraPostgres({ version: rds.AuroraPostgresEngineVersion.VER_17_7 }),
      parameterGroup,
      defaultDatabaseName: names.databaseName,
      credentials: rds.Credentials.fromGeneratedSecret("flowstate_admin", {
        secretName: names.adminSecretName,
        encryptionKey: dataKey,
      }),
      writer: rds.ClusterInstance.serverlessV2("writer", { enablePerformanceInsights: true }),
      readers: props.production ? [rds.ClusterInstance.serverlessV2("reader", { scaleWithWriter: true })] : [],
      serverlessV2MinCapacity: props.production ? 1 : 0.5,
      serverlessV2MaxCapacity: props.production ? 32 : 4,
      vpc: props.vpc,
      vpcSubnets: { subnetType: SubnetType.PRIVATE_ISOLATED },
      securityGroups: [props.securityGroup],
      storageEncrypted: true,
      storageEncryptionKey: dataKey,
      backup: { retention: Duration.days(props.production ? 35 : 7), preferredWindow: "01:00-02:00" },
      deletionProtection: true,
      iamAuthentication: true,
      clusterIdentifier,
      cloudwatchLogsExports: ["postgresql"],
      removalPolicy: RemovalPolicy.SNAPSHOT,
    });
    this.cluster.node.addDependency(postgresLogs);
    acknowledge(
      this.cluster,
      "AwsSolutions-RDS11",
      "the port is not a secret: only the services' own security groups reach the cluster at all",
    );
    acknowledge(
      this.cluster,
      "AwsSolutions-SMG4",
      "the administrator's password is used only by the one-off database-users task; the rotate-keys runbook rotates it by hand",
    );

    for (const service of dataServices.filter((s) => entryOf(s).database)) {
      const logins = names.databaseLogins(service).map((login) => {
        const secret = new rds.DatabaseSecret(this, `Login-${login.username}`, {
          username: login.username,
          secretName: login.secretName,
          encryptionKey: dataKey,
        });
        acknowledge(
          secret,
          "AwsSolutions-SMG4",
          "a changed password must reach the role before the tasks restart; the rotate-keys runbook does both in order",
        );
        return { variable: login.variable, username: login.username, secret };
      });
      this.logins.set(service, logins);
    }
  }
}
